// Discovery documents and /version: enough for client-node and kubectl-style clients to
// find the core/v1 pods and secrets resources.
export const VERSION = {
  major: '1', minor: '31', gitVersion: 'v1.31.0-k8sd', gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean', buildDate: '2026-01-01T00:00:00Z', goVersion: 'go1.22.0', compiler: 'gc', platform: 'linux/amd64',
};

export const apiVersions = (serverAddress: string): unknown => ({
  kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
});

const APPS = { name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } };
const NETWORKING = { name: 'networking.k8s.io', versions: [{ groupVersion: 'networking.k8s.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'networking.k8s.io/v1', version: 'v1' } };
export const API_GROUPS = { kind: 'APIGroupList', apiVersion: 'v1', groups: [APPS, NETWORKING] };

const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'watch'];
export const CORE_V1 = {
  kind: 'APIResourceList', groupVersion: 'v1',
  resources: [
    { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs, shortNames: ['po'], categories: ['all'] },
    { name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
    { name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
    { name: 'pods/proxy', singularName: '', namespaced: true, kind: 'PodProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] },
    { name: 'secrets', singularName: 'secret', namespaced: true, kind: 'Secret', verbs },
    { name: 'services', singularName: 'service', namespaced: true, kind: 'Service', verbs: verbs.filter((v) => v !== 'deletecollection'), shortNames: ['svc'], categories: ['all'] },
  ],
};

export const APPS_V1 = {
  kind: 'APIResourceList', groupVersion: 'apps/v1',
  resources: [{ name: 'deployments', singularName: 'deployment', namespaced: true, kind: 'Deployment', verbs, shortNames: ['deploy'], categories: ['all'] }],
};

export const NETWORKING_V1 = {
  kind: 'APIResourceList', groupVersion: 'networking.k8s.io/v1',
  resources: [{ name: 'networkpolicies', singularName: 'networkpolicy', namespaced: true, kind: 'NetworkPolicy', verbs, shortNames: ['netpol'] }],
};
