// Host networking helpers for containers on the engine's bridge network.
export { startLoopbackRelays, type LoopbackRelays, type LoopbackRelayOptions } from './loopback-relays.js';
export { bridgeNetwork, inSubnet, urlHost, type BridgeNetwork } from './gateway.js';
export { startTcpRelay, type TcpRelay, type TcpRelayOptions } from './tcp-relay.js';
