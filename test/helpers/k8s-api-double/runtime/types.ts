// What the double's kubelet needs from whatever actually runs a Pod: podman (real
// containers from the Pod's own YAML) or the in-process fake used by scale benches.
import type { ContainerState, Pod, Secret } from '../types.js';

/** One observation of a pod's (single) container, reported whenever it changes. */
export interface Observation {
  state: ContainerState;
  podIP?: string;
  imageID?: string;
  containerID?: string;
}

export interface PodRuntime {
  readonly name: string;
  /**
   * Pulls (or finds) the image, creates and starts the Pod. Reports every container state
   * change through `report` until the container terminates or the pod is stopped. Resolves
   * once started (or once a waiting state such as ErrImagePull was reported).
   */
  start(pod: Pod, secrets: Map<string, Secret>, report: (o: Observation) => void): Promise<void>;
  /**
   * Starts the pod's ended container again in the same pod (same IP, same volumes), reporting
   * through `start`'s `report`: the kubelet's restart under restartPolicy Always / OnFailure.
   */
  restart(pod: Pod): Promise<void>;
  /** SIGKILLs the pod's container (the container ends with exit code 137). */
  kill(pod: Pod): Promise<void>;
  /** Stops the pod within `graceSeconds` and removes everything the runtime made for it. */
  remove(pod: Pod, graceSeconds: number): Promise<void>;
  logs(pod: Pod, tailLines?: number): Promise<string>;
  /** Removes every pod this runtime instance ever made (shutdown). */
  removeAll(): Promise<void>;
}
