#!/bin/bash
# Agent image entrypoint (PID 1, root). Works as `bash /opt/gaia2-init-entrypoint.sh` with the
# reference runner's flags and with ours:
#   1. private state:   /var/gaia2 (gaia2, 700) — the agent user cannot read the scenario or state
#   2. world daemon:    as gaia2, full environment (judge keys stay out of the agent's reach);
#                       it seeds the apps, serves the adapter on 0.0.0.0:$GAIA2_ADAPTER_PORT and
#                       the CLI/agent sockets in /run/gaia2
#   3. agent runtime:   GAIA2_AGENT=default|scripted|external as user agent with a scrubbed
#                       environment (external: an agent layer's launcher, docs/agents.md)
#                       (oracle runs inside the daemon; unset: oracle without PROVIDER, else default)
#   4. supervision:     if the agent exits, the daemon is told (SIGUSR1); if the daemon dies, a
#                       status-only server writes a terminal status with a reason and keeps
#                       answering /status and /health; after the runner's POST /shutdown the
#                       container ends
set -uo pipefail

SCENARIO="${GAIA2_SCENARIO:-/var/gaia2/custom_scenario.json}"
STATE=/var/gaia2/state
RUN=/run/gaia2
# Which runtime plays (docs/contract.md, "Which agent runtime plays"; the daemon applies the
# same rule): GAIA2_AGENT names it; without it, no PROVIDER is the reference runner's oracle
# profile (it passes no provider), and a PROVIDER means the LLM agent.
AGENT="${GAIA2_AGENT:-}"; AGENT="${AGENT//[[:space:]]/}"; AGENT="${AGENT,,}"
if [[ -z $AGENT ]]; then
  provider="${PROVIDER:-}"
  if [[ -n ${provider//[[:space:]]/} ]]; then AGENT=default; else AGENT=oracle; fi
fi
NODE=/usr/local/bin/node
APP=/opt/gaia2
EVENTD_LOG=/tmp/gaia2-eventd.log
ENTRY_LOG=/tmp/entrypoint.log
export GAIA2_SCENARIO="$SCENARIO" GAIA2_STATE_DIR="$STATE" GAIA2_ADAPTER_PORT="${GAIA2_ADAPTER_PORT:-8090}"

: >"$ENTRY_LOG"
# Secrets as files (a cluster backend mounts them from a Secret, never as literal environment):
# each file $GAIA2_SECRETS_DIR/<volume>/<NAME> becomes the variable NAME of this process, so
# everything below hands them on exactly like variables given to the container. The files are
# root-only (mode 0400): neither the daemon's user nor the agent's can read them.
SECRET_NAMES=
if [[ -n ${GAIA2_SECRETS_DIR:-} ]]; then
  for f in "$GAIA2_SECRETS_DIR"/*/*; do
    n=${f##*/}
    [[ -f $f && $n =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && export "$n=$(<"$f")" && SECRET_NAMES+=" $n"
  done
fi
# Builtins only (no date/tee processes): the daemon's boot runs meanwhile.
log() {
  local line
  TZ=UTC printf -v line '%(%Y-%m-%d %H:%M:%S)T entrypoint: %s' -1 "$*"
  printf '%s\n' "$line" >>"$ENTRY_LOG"
  printf '%s\n' "$line" >&2
}
# Names only, never values: shows which secrets arrived.
[[ -n $SECRET_NAMES ]] && log "secret files loaded:$SECRET_NAMES"
# setpriv execs the command: the pid of a backgrounded `setpriv …` is the process itself,
# so `kill -USR1 $DAEMON` and `wait` reach node, not a subshell.
SETPRIV_GAIA2=(setpriv --reuid=gaia2 --regid=gaia2 --init-groups)
SETPRIV_AGENT=(setpriv --reuid=agent --regid=agent --init-groups)

# 1. Private state and sockets. The image ships them with their owners and modes
#    (agent-image/setup.sh); only when something is mounted over them (a volume) are they set
#    up again, with `install` (creates or truncates, sets owner and mode, one process each).
#    Every process here delays the daemon's start, so the usual path runs builtins only.
layout_intact=1
while read -r _ _ _ _ mnt _; do
  case "$mnt" in /var|/var/gaia2|"$STATE"|/run|"$RUN"|/tmp) layout_intact=;; esac
done </proc/self/mountinfo
if [[ -n $layout_intact && -d $STATE && -d $RUN && -f $EVENTD_LOG && -f /tmp/faketime.rc ]]; then
  : >"$EVENTD_LOG"
  : >/tmp/faketime.rc
else
  install -d -o gaia2 -g gaia2 -m 700 /var/gaia2 "$STATE"
  install -d -o gaia2 -g gaia2 -m 755 "$RUN"
  install -o gaia2 -g gaia2 -m 600 /dev/null "$EVENTD_LOG"
  install -o gaia2 -g gaia2 -m 644 /dev/null /tmp/faketime.rc
fi
shopt -s nullglob dotglob
stale=("$STATE"/* "$RUN"/*)
shopt -u nullglob dotglob
((${#stale[@]})) && rm -rf -- "${stale[@]}"
# (with GAIA2_SCENARIO_READY the runner puts the scenario in after start; the daemon waits)
if [[ ! -r $SCENARIO && -z ${GAIA2_SCENARIO_READY:-} ]]; then log "no scenario at $SCENARIO"; fi

# 1b. Sealed network (docs/contract.md, "Sealed network"): with GAIA2_SEAL_ALLOW (host:port,
#     comma-separated: the model gateway's relays) the agent user's connections may go to
#     loopback (the world's services) and those addresses only; everything else, DNS included,
#     is rejected at once (not dropped, so programs fail fast). The rules live in this
#     container's own network namespace and need NET_ADMIN, which the runner adds when it asks
#     for them. They go in before any process of the agent user exists; if they cannot, the
#     container ends here rather than run unsealed.
seal_network() {
  local uid hp host port ip ok
  uid=$(id -u agent) || return 1
  command -v iptables >/dev/null || { log "sealed network: iptables missing"; return 1; }
  iptables -w -A OUTPUT -o lo -m owner --uid-owner "$uid" -j ACCEPT || return 1
  for hp in ${GAIA2_SEAL_ALLOW//,/ }; do
    host=${hp%:*} port=${hp##*:} ok=
    [[ $port =~ ^[0-9]+$ ]] || { log "sealed network: bad address $hp"; return 1; }
    # a name (host.containers.internal) is resolved here, as root, from /etc/hosts or DNS
    for ip in $(getent ahostsv4 "$host" | awk '{print $1}' | sort -u); do
      iptables -w -A OUTPUT -m owner --uid-owner "$uid" -p tcp -d "$ip" --dport "$port" -j ACCEPT || return 1
      ok=1
    done
    [[ -n $ok ]] || { log "sealed network: cannot resolve $host"; return 1; }
  done
  iptables -w -A OUTPUT -m owner --uid-owner "$uid" -p tcp -j REJECT --reject-with tcp-reset || return 1
  iptables -w -A OUTPUT -m owner --uid-owner "$uid" -j REJECT || return 1
  # IPv6: loopback only. Without IPv6 in the container there is nothing to filter.
  if ip6tables -w -A OUTPUT -o lo -m owner --uid-owner "$uid" -j ACCEPT 2>/dev/null; then
    ip6tables -w -A OUTPUT -m owner --uid-owner "$uid" -j REJECT || return 1
  elif grep -qv ' lo$' /proc/net/if_inet6 2>/dev/null; then
    log "sealed network: cannot filter IPv6"; return 1
  fi
  log "sealed network: the agent reaches loopback and ${GAIA2_SEAL_ALLOW:-nothing else}"
}
if [[ -n ${GAIA2_SEAL_ALLOW+x} ]] && ! seal_network; then
  log "sealed network asked for (GAIA2_SEAL_ALLOW) but the filter could not be installed (is NET_ADMIN granted?): not starting"
  exit 1
fi

# 2. World daemon, from its startup snapshot (built with the image by setup.sh).
if [[ -r $APP/gaia2d.blob ]]; then DAEMON_JS=(--snapshot-blob "$APP/gaia2d.blob"); else DAEMON_JS=("$APP/gaia2d.cjs"); fi
# Memory (docs/daemon.md, "App state"): its heap is the universe's states, which live as long
# as it does, so a young generation of 1 MB semi-spaces (V8 grows them to 16 MB while a large
# scenario is parsed, and keeps them) costs a few more scavenges and ~25 MB less RSS at 18 MB;
# --expose-gc lets it ask for one full collection once the world is composed.
# A chain step whose carry is read through the daemon (GET /carry; GAIA2_CARRY_READ, a runner
# without an archive API): the daemon may read the agent's whole home, its private files too, as
# the engine's archive API would (CAP_DAC_OVERRIDE kept as an ambient capability: the agent's own
# processes never get it). Where the unit may not hold it, files only the agent can read stay out.
SETPRIV_DAEMON=("${SETPRIV_GAIA2[@]}")
if [[ -n ${GAIA2_CARRY_READ:-} ]]; then
  if "${SETPRIV_GAIA2[@]}" --inh-caps=+dac_override --ambient-caps=+dac_override true 2>/dev/null; then
    SETPRIV_DAEMON+=(--inh-caps=+dac_override --ambient-caps=+dac_override)
    log "world daemon may read the agent's home for the chain's carry"
  else
    log "world daemon cannot be given CAP_DAC_OVERRIDE: the carry leaves out files only the agent can read"
  fi
fi
HOME=/var/gaia2 "${SETPRIV_DAEMON[@]}" "$NODE" --max-semi-space-size=1 --expose-gc "${DAEMON_JS[@]}" >>"$EVENTD_LOG" 2>&1 &
DAEMON=$!
log "world daemon started (pid $DAEMON, agent $AGENT)"

# 2b. A universe chain's carried home, uploaded by a runner without an archive API (contract:
#     GAIA2_CARRY_HOME): one tar through the daemon's POST/PUT /files before the scenario's ready
#     marker; unpacked into the home (folders, links and modes as they were), the agent's, before
#     the agent starts (this wait is the chains' cost; every other run starts the agent at once).
#     A link whose target leaves the folder (absolute, or with ..) is made last (GNU tar's
#     delayed links), so no entry is written through one out of the home.
CARRY_HOME_TAR=/var/gaia2/carry-home.tar
if [[ -n ${GAIA2_CARRY_HOME:-} && -n ${GAIA2_SCENARIO_READY:-} ]]; then
  while [[ ! -e $GAIA2_SCENARIO_READY ]] && kill -0 "$DAEMON" 2>/dev/null; do sleep 0.05; done
  if [[ -f $CARRY_HOME_TAR ]]; then
    if tar -xpf "$CARRY_HOME_TAR" -C /home/agent --no-same-owner --no-overwrite-dir && chown -R agent:agent /home/agent; then
      log "carried home put in"
    else
      log "carried home not put in"
    fi
    rm -f -- "$CARRY_HOME_TAR"
  fi
fi

# 3. Agent runtime.
AGENT_PID=
case "$AGENT" in
  oracle) ;;
  default|scripted|external)
    # Started at once, while the daemon composes the world: the runtime's own start (Node, its
    # bundle) overlaps the scenario's parse instead of following it, and the runtime connects as
    # soon as the daemon serves the agent socket (it retries while the socket is absent, and the
    # CLI socket is served before it). Supervision below ends it if the daemon dies meanwhile.
    # Only what the agent needs, quoted with %q (values may hold spaces or quotes).
    # In a directory of the agent's own, so the agent can delete the file once it has read it.
    install -d -o agent -g agent -m 700 "$RUN/agent-env"
    ENV_FILE="$RUN/agent-env/agent.env"
    SECRETS_FILE="$RUN/agent-env/secrets.json"
    SECRET_VARS=(API_KEY ANTHROPIC_API_KEY OPENAI_API_KEY GEMINI_API_KEY GOOGLE_API_KEY OPENROUTER_API_KEY
                 OPENAI_COMPAT_API_KEY OPENAI_COMPLETIONS_API_KEY)
    (
      umask 077
      for v in PROVIDER MODEL BASE_URL THINKING MAX_TOKENS REASONING_EFFORT OPENROUTER_BASE_URL \
               http_proxy https_proxy HTTP_PROXY HTTPS_PROXY no_proxy NO_PROXY \
               NODE_EXTRA_CA_CERTS REQUESTS_CA_BUNDLE SSL_CERT_FILE GAIA2_TRACE_FILE GAIA2_SCRIPT \
               $(compgen -e | grep -E '^GAIA2_(AGENT|LLM)_' || true); do
        [[ -n ${!v:-} ]] && printf 'export %s=%q\n' "$v" "${!v}"
      done
      [[ $AGENT == default || $AGENT == external ]] && printf 'export GAIA2_AGENT_SECRETS_FILE=%q\n' "$SECRETS_FILE"
    ) >"$ENV_FILE"
    chown agent:agent "$ENV_FILE"
    # Keys go in a JSON file the runtime reads and deletes: never in its environment, where the
    # model's own shell commands could read them through /proc/<pid>/environ. (An agent layer's
    # launcher gets them in its own environment: third-party programs read keys from there.)
    if [[ $AGENT == default || $AGENT == external ]]; then
      "$NODE" -e 'const [file, ...names] = process.argv.slice(1); const o = {};
        for (const k of names) if (process.env[k]) o[k] = process.env[k];
        require("fs").writeFileSync(file, JSON.stringify(o), { mode: 0o600 });' "$SECRETS_FILE" "${SECRET_VARS[@]}"
      chown agent:agent "$SECRETS_FILE"
    fi
    if [[ -n ${GAIA2_TRACE_FILE:-} ]]; then install -o agent -g agent -m 644 /dev/null "$GAIA2_TRACE_FILE"; fi
    # The launcher's trace directory: the agent's to write, the daemon's to collect.
    [[ $AGENT == external ]] && install -d -o agent -g agent -m 755 /tmp/gaia2-agent-trace
    # GAIA2_REAL_CLOCK=1: the runtime's own bookkeeping (timeouts, traces) keeps the real clock;
    # it drops the variable at its start, so whatever it runs reads the simulated clock
    # (docs/contract.md, "The agent's clock").
    "${SETPRIV_AGENT[@]}" env -i HOME=/home/agent USER=agent LANG=C.UTF-8 GAIA2_AGENT="$AGENT" GAIA2_REAL_CLOCK=1 \
      PATH=/home/agent/bin:/usr/local/bin:/usr/bin:/bin \
      bash -c ". $ENV_FILE && rm -f $ENV_FILE && cd /home/agent && exec $NODE $APP/agent-$AGENT.mjs" \
      >>"$ENTRY_LOG" 2>&1 &
    AGENT_PID=$!
    log "agent runtime $AGENT started (pid $AGENT_PID)"
    ;;
  *) log "unknown GAIA2_AGENT=$AGENT (the daemon reports it)";;
esac

on_term() { kill -TERM "$DAEMON" ${AGENT_PID:+"$AGENT_PID"} 2>/dev/null; wait "$DAEMON"; exit 0; }
trap on_term TERM INT

# 4. Supervision. `wait -n -p` says which process ended (and reaps it: keep its code).
code=
if [[ -n $AGENT_PID ]]; then
  ended=
  wait -n -p ended "$DAEMON" "$AGENT_PID"; first=$?
  if [[ $ended == "$AGENT_PID" ]]; then
    log "agent runtime exited with code $first"
    echo "exit code $first" >"$RUN/agent.exit"; chmod 644 "$RUN/agent.exit"
    kill -USR1 "$DAEMON" 2>/dev/null
  else
    code=$first
  fi
fi
if [[ -z $code ]]; then wait "$DAEMON"; code=$?; fi
# POST /shutdown: the runner has collected everything; end the container (no fallback server).
if [[ -e $RUN/shutdown ]]; then
  log "world daemon shut down by the runner"
  [[ -n $AGENT_PID ]] && kill "$AGENT_PID" 2>/dev/null
  exit 0
fi
if ((code > 128)); then how="killed by signal $((code - 128))"; else how="exit code $code"; fi
log "world daemon ended ($how)"
[[ -n $AGENT_PID ]] && kill "$AGENT_PID" 2>/dev/null
exec "${SETPRIV_GAIA2[@]}" env HOME=/var/gaia2 GAIA2_DAEMON_EXIT="$how" \
  GAIA2_STATE_DIR="$STATE" GAIA2_ADAPTER_PORT="$GAIA2_ADAPTER_PORT" GAIA2_ADAPTER_TOKEN="${GAIA2_ADAPTER_TOKEN:-}" \
  "$NODE" "$APP/gaia2-status.mjs" >>"$EVENTD_LOG" 2>&1
