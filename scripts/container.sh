#!/usr/bin/env bash
# Builds the container image from Containerfile with Podman, runs it,
# and checks that the server in it answers /healthz, both from outside
# the container and through the image's own health check. Where no
# container runtime works (no podman, or a machine that cannot start
# containers), it prints "skipped: <why>" and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v podman >/dev/null 2>&1; then
	echo "skipped: podman is not installed (Debian: apt-get install podman)"
	exit 0
fi

ctx="$(mktemp -d)"
name="practiced-check-$$"
image="localhost/practiced:check-$$"
volume="practiced-check-data-$$"
cleanup() {
	podman rm -f "$name" >/dev/null 2>&1 || true
	podman volume rm -f "$volume" >/dev/null 2>&1 || true
	podman rmi -f "$image" >/dev/null 2>&1 || true
	rm -rf "$ctx"
}
trap cleanup EXIT

# The image holds only the binary, built here, so the build pulls nothing.
CGO_ENABLED=0 go build -trimpath -o "$ctx/practiced" ./cmd/practiced
cp Containerfile "$ctx/"
podman build --quiet --format docker -t "$image" "$ctx" >/dev/null

# A machine whose limits a container may not raise refuses crun's
# defaults; runc with limits below the machine's own is tried next.
runtime_opts=""
if ! out="$(podman run --rm --no-healthcheck "$image" version 2>&1)"; then
	if command -v runc >/dev/null 2>&1 &&
		out="$(podman run --rm --no-healthcheck --runtime runc --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 "$image" version 2>&1)"; then
		runtime_opts="--runtime runc --ulimit nofile=1024:1024 --ulimit nproc=1024:1024"
	else
		echo "skipped: podman cannot run a container here: $(echo "$out" | tail -n 1)"
		exit 0
	fi
fi
echo "image runs: $out"

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# shellcheck disable=SC2086
# The image's health check is run below by hand: its timer needs systemd.
podman run -d --name "$name" $runtime_opts --network host --health-interval disable \
	-e PRACTICED_ADDR="127.0.0.1:$port" -v "$volume:/data" "$image" serve >/dev/null 2>"$ctx/run.log" || {
	cat "$ctx/run.log"
	exit 1
}

for _ in $(seq 1 60); do
	if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
		break
	fi
	sleep 0.5
done
if ! body="$(curl -fsS "http://127.0.0.1:$port/healthz")"; then
	echo "the server in the container never answered /healthz; its log:"
	podman logs "$name" || true
	exit 1
fi
echo "GET /healthz from outside the container: $body"
podman exec "$name" /practiced healthcheck --addr "127.0.0.1:$port" >/dev/null
if ! podman healthcheck run "$name"; then
	echo "the image's own health check failed"
	exit 1
fi
user="$(podman inspect --format '{{.Config.User}}' "$name")"
health="$(podman image inspect --format '{{json .Config.Healthcheck.Test}}' "$image")"
echo "container user: $user; health check: $health"
if [ "$user" != "65532:65532" ]; then
	echo "the container runs as $user, want 65532:65532"
	exit 1
fi
if ! podman exec "$name" /practiced backup --to /data/check-backup.db >/dev/null; then
	echo "the server cannot write to its /data volume"
	exit 1
fi
echo "container check passed"
