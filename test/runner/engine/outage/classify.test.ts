// Which failures are an engine outage (waited out, the run restarted) and which are a run's own
// (never retried): socket errors of the engine client vs an image missing, an agent failing.
import { describe, expect, it } from 'vitest';
import { isOutageError, isOutageResult, suspectOutage } from '../../../../runner/src/engine/outage/index.js';
import { EngineError } from '../../../../runner/src/engine/index.js';
import { wrapEngineError } from '../../../../runner/src/engine/errors.js';

const sockErr = (code: string, message = `connect ${code} /run/podman/podman.sock`) => Object.assign(new Error(message), { code });

describe('isOutageError', () => {
  it.each(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE'])('%s on the engine socket is an outage', (code) => {
    expect(isOutageError(sockErr(code))).toBe(true);
  });
  it('a connection cut mid-request ("socket hang up", no code) is an outage', () => {
    expect(isOutageError(new Error('socket hang up'))).toBe(true);
  });
  it('HTTP errors of an engine that answers, permission errors and non-errors are not', () => {
    expect(isOutageError(Object.assign(new Error('(HTTP code 404) no such image'), { statusCode: 404 }))).toBe(false);
    expect(isOutageError(sockErr('EACCES'))).toBe(false);
    expect(isOutageError(null)).toBe(false);
    expect(isOutageError('ECONNREFUSED')).toBe(false);
  });
});

describe('wrapEngineError', () => {
  it('makes every outage engine_unavailable, whatever kind the call would otherwise carry', () => {
    expect(wrapEngineError(new Error('socket hang up'), 'starting container c1', 'container_start_failed')).toMatchObject({
      kind: 'engine_unavailable',
      message: 'container engine unreachable while starting container c1 (socket hang up)',
    });
    expect(wrapEngineError(sockErr('ECONNRESET'), 'creating a container', 'container_start_failed').kind).toBe('engine_unavailable');
    expect(wrapEngineError(sockErr('ENOENT'), 'inspecting c1').message).toBe('container engine unreachable while inspecting c1 (ENOENT)');
  });
  it("keeps the call's kind and the engine's message for an engine that answered", () => {
    const e = Object.assign(new Error('x'), { statusCode: 500, json: { message: 'no such image: foo' } });
    expect(wrapEngineError(e, 'creating a container from foo', 'container_start_failed')).toMatchObject({ kind: 'container_start_failed', message: 'creating a container from foo: no such image: foo' });
  });
});

describe('isOutageResult', () => {
  const err = (error_kind: string, error = 'boom') => ({ status: 'error' as const, error_kind: error_kind as never, error });
  it('engine_unavailable always is', () => {
    expect(isOutageResult(err('engine_unavailable', 'container engine unreachable while starting container x (ENOENT)'))).toBe(true);
  });
  it('engine_unavailable that is access denied is not: the engine answers, and would answer the same again', () => {
    expect(isOutageResult(err('engine_unavailable', wrapEngineError(sockErr('EACCES'), 'starting container x').message))).toBe(false);
    expect(isOutageResult(err('engine_unavailable', "creating Pod p: the cluster refused the request (HTTP 403: forbidden); see docs/kubernetes.md for the Role the runner needs"))).toBe(false);
    expect(isOutageResult(err('engine_unavailable', "creating Pod p: the cluster's API server is not reachable (connect ECONNREFUSED 10.0.0.1:6443)"))).toBe(true);
  });
  it('an engine call that failed with a socket error is (results written before the wrap knew the code)', () => {
    expect(isOutageResult(err('container_start_failed', 'starting container x: socket hang up'))).toBe(true);
    expect(isOutageResult(err('container_start_failed', 'creating a container from img: no such image'))).toBe(false);
  });
  it("a lost unit is only when the engine was seen away during the run, never by its log's text", () => {
    expect(isOutageResult(err('container_exited', 'container exited (code 137): curl: ECONNREFUSED'))).toBe(false);
    expect(isOutageResult(err('health_timeout', 'agent not ready within 90s (connect ECONNREFUSED 127.0.0.1:8090)'))).toBe(false);
    expect(isOutageResult(err('container_exited', 'container exited (code 137)'), true)).toBe(true);
    expect(isOutageResult(err('health_timeout'), true)).toBe(true);
  });
  it("a run's own failures never are, even during an outage", () => {
    for (const k of ['image_missing', 'provider_error', 'judge_error', 'daemon_error', 'invalid_scenario', 'interrupted', 'scenario_timeout', 'internal_error']) expect(isOutageResult(err(k, 'ECONNRESET'), true)).toBe(false);
    expect(isOutageResult({ status: 'fail', error: 'socket hang up' }, true)).toBe(false);
    expect(isOutageResult({ status: 'pass' }, true)).toBe(false);
  });
  it('an EngineError thrown for an outage classifies like its socket error', () => {
    const e = wrapEngineError(sockErr('ECONNREFUSED'), 'x');
    expect(e).toBeInstanceOf(EngineError);
    expect(isOutageResult(err(e.kind, e.message))).toBe(true);
  });
  it('suspect: a unit that exited cleanly mid-run was stopped from outside; a start refused for the engine\'s own reason may be a shutdown', () => {
    expect(suspectOutage(err('container_exited', 'container exited (code 0): 2026-11-29 entrypoint: world daemon started'))).toBe('stopped');
    expect(suspectOutage(err('container_exited', 'container exited (code 143)'))).toBe('stopped');
    expect(suspectOutage(err('container_exited', 'container exited (code 137, out of memory)'))).toBe(null);
    expect(suspectOutage(err('container_exited', 'container exited (code 0, out of memory)'))).toBe(null);
    expect(suspectOutage(err('container_exited', 'container exited (code 1): world crashed'))).toBe(null);
    expect(suspectOutage(err('container_start_failed', 'starting container g: failed to update store for object type *libnetwork.endpoint: open : no such file or directory'))).toBe('start');
    expect(suspectOutage(err('container_start_failed', 'starting container g: bind: address already in use'))).toBe(null);
    expect(suspectOutage(err('health_timeout', 'agent not ready within 90s'))).toBe(null);
    expect(suspectOutage({ status: 'fail', error: 'container exited (code 0)' })).toBe(null);
  });
});
