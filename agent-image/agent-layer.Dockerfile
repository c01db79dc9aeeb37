# An agent layer on the world image (docs/agents.md): the agent's npm package, its launcher and
# config files under /opt/gaia2-agent. Built by `gaia2-runner build-image --agent NAME`, which
# fetches the package on the host and puts it in the context (no registry needed here).
ARG WORLD_IMAGE=localhost/gaia2-agent:latest
FROM ${WORLD_IMAGE}
# The package comes as one archive, unpacked here (files 644 or 755, directories 755, owner
# root): tens of thousands of files travel and land as one. Then the layer's own files (its
# launcher or serve program, the kit, and the Node it brings when the package wants a newer one).
ADD pkg.tar /opt/gaia2-agent/pkg/
# Modes come from the context: files 644 (755 when executable), directories 755, owner root.
COPY layer/ /opt/gaia2-agent/
ARG AGENT_NAME
ARG AGENT_VERSION
ARG AGENT_NODE=
ARG WORLD_HASH=unknown
ARG LAYER_HASH=dev
LABEL gaia2.agent.name=${AGENT_NAME} gaia2.agent.version=${AGENT_VERSION} gaia2.agent.world=${WORLD_HASH} \
      gaia2.agent.layer-hash=${LAYER_HASH} gaia2.agent.node="${AGENT_NODE}"
ENV GAIA2_AGENT=external GAIA2_AGENT_NAME=${AGENT_NAME} GAIA2_AGENT_VERSION=${AGENT_VERSION}
