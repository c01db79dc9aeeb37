// Kubernetes `Status` objects: the body of every failed API call (and of a few successful
// deletes), with the reason codes clients switch on.

export type StatusReason =
  | 'AlreadyExists' | 'NotFound' | 'Forbidden' | 'Invalid' | 'Gone' | 'Expired'
  | 'Unauthorized' | 'BadRequest' | 'MethodNotAllowed' | 'Conflict' | 'InternalError'
  | 'ServiceUnavailable' | 'UnsupportedMediaType' | 'RequestEntityTooLarge';

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: { reason: string; message: string; field: string }[];
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** An API failure: thrown by handlers, turned into a Status response by the server. */
export class ApiError extends Error {
  constructor(readonly code: number, readonly reason: StatusReason, message: string, readonly details?: StatusDetails) {
    super(message);
  }
  toStatus(): Status {
    return {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: this.message, reason: this.reason, ...(this.details ? { details: this.details } : {}), code: this.code,
    };
  }
}

export const notFound = (resource: string, name: string): ApiError =>
  new ApiError(404, 'NotFound', `${resource} "${name}" not found`, { name, kind: resource });

export const alreadyExists = (resource: string, name: string): ApiError =>
  new ApiError(409, 'AlreadyExists', `${resource} "${name}" already exists`, { name, kind: resource });

export const badRequest = (message: string): ApiError => new ApiError(400, 'BadRequest', message);

/** 422 with one cause per invalid field, worded like the API server's field errors. */
export function invalid(kind: string, name: string, causes: { field: string; message: string; reason?: string }[]): ApiError {
  const list = causes.map((c) => ({ reason: c.reason ?? 'FieldValueInvalid', message: c.message, field: c.field }));
  const summary = list.map((c) => `${c.field}: ${c.message}`).join(', ');
  return new ApiError(422, 'Invalid', `${kind} "${name}" is invalid: ${summary}`, { name, kind, causes: list });
}

export const unauthorized = (): ApiError => new ApiError(401, 'Unauthorized', 'Unauthorized');

export function forbidden(user: string, verb: string, resource: string, namespace: string, name?: string): ApiError {
  const subject = name ? `${resource} "${name}"` : resource;
  return new ApiError(403, 'Forbidden',
    `${subject} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "" in the namespace "${namespace}"`,
    { ...(name ? { name } : {}), kind: resource });
}

/** The in-stream watch error for a resourceVersion the double no longer remembers. */
export const expired = (rv: string, oldest: number): ApiError =>
  new ApiError(410, 'Expired', `too old resource version: ${rv} (${oldest})`);

export function success(kind: string, name: string, uid?: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, kind, ...(uid ? { uid } : {}) }, code: 200 } as Status;
}
