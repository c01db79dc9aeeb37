// Waiting for a unit's adapter to come up, cheaply. Until the daemon listens, every probe is
// wasted work, and a busy machine booting 8 containers at once would spend ~50 of them per
// run. So the first look comes when a boot usually ends; until the port accepts a connection
// the probes are the backend's cheap look (AdapterEndpoint.accepting: a bare TCP connect for
// a published port); the first /health, when the world is usually composed after that.
import { LatencyEstimate } from './latency-estimate.js';

/** Boot times (start → adapter accepting connections) per image and agent, shared by this process's runs. */
export const bootEstimate = new LatencyEstimate(50, 2000);
/** Then until /health says the agent is connected (world composed, agent attached). */
export const readyEstimate = new LatencyEstimate(0, 1000);
