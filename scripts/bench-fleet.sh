#!/usr/bin/env bash
# Times `gpu-doctor fleet` against plain parallel ssh (xargs -P) running the same remote
# command on the same host list, and reports wall time and peak RSS of both.
#
#   scripts/bench-fleet.sh [HOSTS=1000] [JOBS=64]
#
# A real sshd on loopback (an unprivileged port, generated keys, its own config) stands in
# for the fleet; an ssh_config maps node0001..nodeNNNN to it. The remote command prints a
# saved 8-GPU report (tests/fixtures/reports/healthy_8gpu.json), so the time is ssh's and
# gpu-doctor's, not the remote gpu-doctor's. Needs openssh-server, openssh-client and
# /usr/bin/time; uses target/release/gpu-doctor (GPU_DOCTOR_BIN=... to pick another).
set -euo pipefail
cd "$(dirname "$0")/.."

N="${1:-1000}"
JOBS="${2:-64}"
BIN="${GPU_DOCTOR_BIN:-${CARGO_TARGET_DIR:-target}/release/gpu-doctor}"
[ -x "$BIN" ] || { echo "bench-fleet: build first: cargo build --release ($BIN missing)" >&2; exit 1; }
[ -x /usr/sbin/sshd ] || { echo "bench-fleet: install openssh-server" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-fleet: install time (/usr/bin/time)" >&2; exit 1; }

dir="$(mktemp -d)"
sshd_pid=""
cleanup() {
    [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT

for k in host_key user_key; do ssh-keygen -q -t ed25519 -N "" -f "$dir/$k"; done
cp "$dir/user_key.pub" "$dir/authorized_keys"
mkdir -p /run/sshd 2>/dev/null || true
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
cat > "$dir/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
PidFile none
AuthorizedKeysFile $dir/authorized_keys
StrictModes no
UsePAM no
PermitRootLogin yes
PasswordAuthentication no
KbdInteractiveAuthentication no
MaxStartups 4000
MaxSessions 4000
LogLevel ERROR
EOF
echo "[127.0.0.1]:$port $(cat "$dir/host_key.pub")" > "$dir/known_hosts"
cat > "$dir/ssh_config" <<EOF
Host *
  HostName 127.0.0.1
  Port $port
  User $(id -un)
  IdentityFile $dir/user_key
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile $dir/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  CheckHostIP no
  LogLevel ERROR
EOF
cp tests/fixtures/reports/healthy_8gpu.json "$dir/report.json"
printf '#!/bin/sh\nexec cat %s/report.json\n' "$dir" > "$dir/remote-gpu-doctor"
chmod +x "$dir/remote-gpu-doctor"
# Zero-pad to the width of N, as node[0001-1000] does.
w=${#N}; seq -f "node%0${w}g" 1 "$N" > "$dir/hosts"

/usr/sbin/sshd -D -f "$dir/sshd_config" & sshd_pid=$!
for _ in $(seq 100); do (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done

remote="$dir/remote-gpu-doctor --json"
ssh_opts=(-F "$dir/ssh_config" -T -x -a -o BatchMode=yes -o ConnectTimeout=10
          -o ClearAllForwardings=yes -o ServerAliveInterval=15)
ssh "${ssh_opts[@]}" warmup "$remote" > /dev/null   # warm the page cache

measure() { # label, then the command; prints "label wall_s peak_rss_kb"
    local label="$1"; shift
    /usr/bin/time -v -o "$dir/time.$label" "$@"
    local wall rss
    wall="$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/time.$label" |
            awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')"
    rss="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$dir/time.$label")"
    echo "$label $wall $rss"
}

echo "bench-fleet: $N hosts, --jobs $JOBS, sshd on 127.0.0.1:$port, $(nproc) CPUs" >&2
a="$(measure xargs sh -c "xargs -P $JOBS -I{} ssh ${ssh_opts[*]} {} '$remote' < '$dir/hosts' > '$dir/xargs.out'")"
b="$(measure fleet-plain sh -c "'$BIN' fleet --ssh-config '$dir/ssh_config' --hosts '$dir/hosts' --jobs $JOBS --remote-cmd '$dir/remote-gpu-doctor' --plain > '$dir/fleet.txt'; test \$? -le 2")"
c="$(measure fleet-json sh -c "'$BIN' fleet --ssh-config '$dir/ssh_config' --hosts '$dir/hosts' --jobs $JOBS --remote-cmd '$dir/remote-gpu-doctor' --json > '$dir/fleet.json'; test \$? -le 2")"

ok_plain="$(grep -c '  ok  ' "$dir/fleet.txt" || true)"
ok_json="$(python3 -c "import json,sys; d=json.load(open('$dir/fleet.json')); print(d['summary']['statuses']['ok'])")"
reports="$(grep -c '"schema_version"' "$dir/xargs.out" || true)"
echo "reports: xargs $reports/$N, fleet --plain ok $ok_plain/$N, fleet --json ok $ok_json/$N"
read -r _ aw arss <<< "$a"
read -r _ bw brss <<< "$b"
read -r _ cw crss <<< "$c"
printf '%-28s %8s s  peak RSS %7s KiB\n' "xargs -P $JOBS ssh" "$aw" "$arss" \
    "gpu-doctor fleet --plain" "$bw" "$brss" "gpu-doctor fleet --json" "$cw" "$crss"
python3 -c "print('ratio fleet/xargs: --plain %.3f, --json %.3f' % ($bw/$aw, $cw/$aw))"
