// Pod status → unit state and typed infrastructure failures (statuses as the API server
// reports them for each case).
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { pendingFailure, unitStateOf } from '../../../../runner/src/engine/kubernetes/pod-state.js';

const pod = (status: V1Pod['status']): V1Pod => ({ metadata: { name: 'p1' }, spec: { containers: [{ name: 'gaia2', image: 'img:1' }] }, status });

describe('unitStateOf', () => {
  it('running, succeeded, failed, removed', () => {
    expect(unitStateOf(pod({ phase: 'Running', containerStatuses: [{ name: 'gaia2', image: 'img:1', imageID: '', ready: true, restartCount: 0, state: { running: {} } }] }))).toEqual({
      status: 'running',
      running: true,
      exitCode: null,
      oomKilled: false,
    });
    const ended = (phase: string, exitCode: number, reason: string) =>
      unitStateOf(pod({ phase, containerStatuses: [{ name: 'gaia2', image: 'img:1', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, reason } } }] }));
    expect(ended('Succeeded', 0, 'Completed')).toEqual({ status: 'succeeded', running: false, exitCode: 0, oomKilled: false });
    expect(ended('Failed', 137, 'Error')).toEqual({ status: 'failed', running: false, exitCode: 137, oomKilled: false });
    expect(ended('Failed', 137, 'OOMKilled').failure?.kind).toBe('oom_killed');
    expect(unitStateOf(null)).toEqual({ status: 'removed', running: false, exitCode: null });
  });

  it('image pull, eviction, node loss are typed', () => {
    const waiting = (reason: string) => pod({ phase: 'Pending', containerStatuses: [{ name: 'gaia2', image: 'img:1', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason, message: 'no such image' } } }] });
    expect(unitStateOf(waiting('ErrImagePull')).failure).toEqual({ kind: 'image_pull_failed', message: 'Pod p1: ErrImagePull for image img:1: no such image' });
    expect(unitStateOf(waiting('ImagePullBackOff')).failure?.kind).toBe('image_pull_failed');
    expect(unitStateOf(waiting('ContainerCreating')).failure).toBeUndefined();
    expect(unitStateOf(waiting('CreateContainerConfigError')).failure?.kind).toBe('container_start_failed');
    expect(unitStateOf(pod({ phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' })).failure).toEqual({
      kind: 'pod_evicted',
      message: 'Pod p1 was evicted: The node was low on resource: memory.',
    });
    expect(unitStateOf(pod({ phase: 'Failed', reason: 'NodeLost' })).failure?.kind).toBe('node_lost');
    expect(unitStateOf(pod({ phase: 'Unknown' })).failure?.kind).toBe('node_lost');
  });

  it('pending past the timeout: unschedulable or still pending', () => {
    const unsched = pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector." }] });
    expect(pendingFailure(unsched, 30)).toEqual({
      kind: 'pod_unschedulable',
      message: "Pod p1 was not scheduled within 30s: Unschedulable (0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.)",
    });
    expect(pendingFailure(pod({ phase: 'Pending' }), 30)).toEqual({ kind: 'pod_pending_timeout', message: 'Pod p1 still Pending after 30s' });
  });
});
