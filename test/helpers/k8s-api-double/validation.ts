// The API server's admission checks that a client can trip: names, labels, required pod
// fields, secret data encoding and size. Failures are 422 Invalid with field paths, as the
// real server reports them.
import { badRequest, invalid } from './status.js';
import { KINDS, type Deployment, type KObject, type NetworkPolicy, type Pod, type Resource, type Secret, type Service } from './types.js';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** A Secret's data may hold at most 1 MiB, like etcd-backed clusters enforce. */
export const MAX_SECRET_BYTES = 1024 * 1024;

type Cause = { field: string; message: string; reason?: string };

function checkLabels(labels: Record<string, string> | undefined, causes: Cause[]): void {
  for (const [k, v] of Object.entries(labels ?? {})) {
    const [prefix, name] = k.includes('/') ? [k.slice(0, k.indexOf('/')), k.slice(k.indexOf('/') + 1)] : [undefined, k];
    if (prefix !== undefined && (!DNS1123_SUBDOMAIN.test(prefix) || prefix.length > 253)) {
      causes.push({ field: 'metadata.labels', message: `Invalid value: "${k}": prefix part must be a lowercase RFC 1123 subdomain` });
    }
    if (!LABEL_NAME.test(name) || name.length > 63) {
      causes.push({ field: 'metadata.labels', message: `Invalid value: "${k}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character` });
    }
    if (typeof v !== 'string' || !LABEL_VALUE.test(v) || v.length > 63) {
      causes.push({ field: 'metadata.labels', message: `Invalid value: "${String(v)}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (at most 63 characters)` });
    }
  }
}

function checkMeta(o: KObject, causes: Cause[]): void {
  const name = o.metadata.name ?? '';
  if (!name) causes.push({ field: 'metadata.name', message: 'Required value: name or generateName is required', reason: 'FieldValueRequired' });
  else if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
    causes.push({ field: 'metadata.name', message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character` });
  }
  checkLabels(o.metadata.labels, causes);
  for (const [i, r] of (o.metadata.ownerReferences ?? []).entries()) {
    if (!r.uid || !r.name || !r.kind || !r.apiVersion) {
      causes.push({ field: `metadata.ownerReferences[${i}]`, message: 'Required value: apiVersion, kind, name and uid are required', reason: 'FieldValueRequired' });
    }
  }
}

function checkPod(p: Pod, causes: Cause[]): void {
  const containers = p.spec?.containers;
  if (!Array.isArray(containers) || containers.length === 0) {
    causes.push({ field: 'spec.containers', message: 'Required value', reason: 'FieldValueRequired' });
    return;
  }
  const volumes = new Set((p.spec.volumes ?? []).map((v) => v.name));
  containers.forEach((c, i) => {
    if (!c.name || !DNS1123_LABEL.test(c.name)) causes.push({ field: `spec.containers[${i}].name`, message: `Invalid value: "${c.name ?? ''}": a lowercase RFC 1123 label is required` });
    if (!c.image) causes.push({ field: `spec.containers[${i}].image`, message: 'Required value', reason: 'FieldValueRequired' });
    if (c.imagePullPolicy && !['Always', 'IfNotPresent', 'Never'].includes(c.imagePullPolicy)) {
      causes.push({ field: `spec.containers[${i}].imagePullPolicy`, message: `Unsupported value: "${c.imagePullPolicy}": supported values: "Always", "IfNotPresent", "Never"`, reason: 'FieldValueNotSupported' });
    }
    (c.volumeMounts ?? []).forEach((m, j) => {
      if (!volumes.has(m.name)) causes.push({ field: `spec.containers[${i}].volumeMounts[${j}].name`, message: `Not found: "${m.name}"`, reason: 'FieldValueNotFound' });
    });
    (c.env ?? []).forEach((e, j) => {
      if (!e.name) causes.push({ field: `spec.containers[${i}].env[${j}].name`, message: 'Required value', reason: 'FieldValueRequired' });
    });
  });
  if (p.spec.restartPolicy && !['Always', 'OnFailure', 'Never'].includes(p.spec.restartPolicy)) {
    causes.push({ field: 'spec.restartPolicy', message: `Unsupported value: "${p.spec.restartPolicy}"`, reason: 'FieldValueNotSupported' });
  }
}

function checkSecret(s: Secret, causes: Cause[]): void {
  let size = 0;
  for (const [k, v] of Object.entries(s.data ?? {})) {
    if (!SECRET_KEY.test(k)) causes.push({ field: `data[${k}]`, message: `Invalid value: "${k}": a valid config key must consist of alphanumeric characters, '-', '_' or '.'` });
    // A real server fails to decode the JSON body for non-base64 bytes: 400, not 422.
    if (typeof v !== 'string' || !BASE64.test(v)) throw badRequest(`Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0`);
    size += Buffer.from(v, 'base64').length;
  }
  for (const [k, v] of Object.entries(s.stringData ?? {})) {
    if (!SECRET_KEY.test(k)) causes.push({ field: `stringData[${k}]`, message: `Invalid value: "${k}": a valid config key must consist of alphanumeric characters, '-', '_' or '.'` });
    size += Buffer.byteLength(String(v));
  }
  if (size > MAX_SECRET_BYTES) causes.push({ field: 'data', message: `Too long: must have at most ${MAX_SECRET_BYTES} bytes`, reason: 'FieldValueTooLong' });
}

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function checkService(s: Service, causes: Cause[]): void {
  const name = s.metadata.name ?? '';
  if (name && (name.length > 63 || !DNS1035_LABEL.test(name))) causes.push({ field: 'metadata.name', message: `Invalid value: "${name}": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character` });
  const ports = s.spec?.ports;
  if (!Array.isArray(ports) || !ports.length) causes.push({ field: 'spec.ports', message: 'Required value', reason: 'FieldValueRequired' });
  (ports ?? []).forEach((p, i) => {
    if (!Number.isInteger(p.port) || p.port < 1 || p.port > 65535) causes.push({ field: `spec.ports[${i}].port`, message: `Invalid value: ${String(p.port)}: must be between 1 and 65535, inclusive` });
  });
  if (s.spec?.type && !['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'].includes(s.spec.type)) causes.push({ field: 'spec.type', message: `Unsupported value: "${s.spec.type}"`, reason: 'FieldValueNotSupported' });
}

function checkDeployment(d: Deployment, causes: Cause[]): void {
  const match = d.spec?.selector?.matchLabels;
  if (!match || !Object.keys(match).length) causes.push({ field: 'spec.selector', message: 'Required value', reason: 'FieldValueRequired' });
  const labels = d.spec?.template?.metadata?.labels ?? {};
  if (match && Object.entries(match).some(([k, v]) => labels[k] !== v)) causes.push({ field: 'spec.template.metadata.labels', message: 'Invalid value: `selector` does not match template `labels`' });
  const inner: Cause[] = [];
  checkPod({ metadata: {}, spec: d.spec?.template?.spec } as Pod, inner);
  for (const c of inner) causes.push({ ...c, field: `spec.template.${c.field}` });
  if (d.spec?.template?.spec?.restartPolicy && d.spec.template.spec.restartPolicy !== 'Always') causes.push({ field: 'spec.template.spec.restartPolicy', message: `Unsupported value: "${d.spec.template.spec.restartPolicy}": supported values: "Always"`, reason: 'FieldValueNotSupported' });
}

/** Throws 422 Invalid listing every problem of a create request body. */
export function validate(resource: Resource, o: KObject): void {
  const causes: Cause[] = [];
  checkMeta(o, causes);
  if (resource === 'pods') checkPod(o as Pod, causes);
  if (resource === 'secrets') checkSecret(o as Secret, causes);
  if (resource === 'services') checkService(o as Service, causes);
  if (resource === 'deployments') checkDeployment(o as Deployment, causes);
  if (resource === 'networkpolicies' && typeof (o as NetworkPolicy).spec?.podSelector !== 'object') causes.push({ field: 'spec.podSelector', message: 'Required value', reason: 'FieldValueRequired' });
  if (causes.length) throw invalid(KINDS[resource], o.metadata.name ?? '', causes);
}
