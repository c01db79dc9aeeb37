// The one timeout race of the host side: a promise, or a rejection once its time is up (the
// timer is cleared when the promise settles first, and never keeps the process alive).

/** `p`, or a rejection after `ms` ("no answer within N s"). */
export function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms).unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
