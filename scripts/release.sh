#!/usr/bin/env bash
# Builds the release binaries: fully static musl executables for x86_64 and aarch64 (for
# the fleet controller, explain, diagnose, diff, matrix), and a glibc build for this
# machine's architecture (for GPU nodes), into dist/ (or $DIST), with a SHA256SUMS file.
#
#   scripts/release.sh                 # both targets
#   scripts/release.sh x86_64          # one (x86_64 or aarch64, or a full target triple)
#
# Each binary is checked: `file` must call it statically linked, and one for this
# machine's architecture must run (`--version`). A target whose toolchain is missing is
# not built: the script says what is missing and exits 1 after building the others.
#
# What a target needs:
#   - the Rust standard library for it:  rustup target add <arch>-unknown-linux-musl
#   - a C compiler for it (the `ring` crate compiles C and assembly):
#       x86_64 on x86_64: gcc or musl-gcc; aarch64: aarch64-linux-musl-gcc
#       (musl.cc cross toolchain), aarch64-linux-gnu-gcc (Debian/Ubuntu:
#       gcc-aarch64-linux-gnu), or clang.
#     Linking uses Rust's bundled rust-lld with the musl start files rustup ships, so no
#     cross linker is needed beyond that C compiler.
#
# A limit of fully static binaries: musl's static dlopen() cannot load shared libraries,
# so these binaries cannot load libnvidia-ml.so.1 or libcuda.so.1: asked for the report
# of a machine they refuse (exit 3) rather than fail a healthy driver. They serve everything that reads no driver:
# `fleet` (the controller), `explain`, `diagnose`, `diff`, `--from REPORT`, `matrix`,
# `checks`. On GPU nodes use the glibc build (`cargo install --locked --path .`, or the
# container image in deploy/Dockerfile).
set -euo pipefail
cd "$(dirname "$0")/.."

DIST=${DIST:-dist}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
host_arch=$(uname -m)

targets=()
for t in "${@:-x86_64 aarch64}"; do
    for one in $t; do
        case "$one" in
        x86_64 | aarch64) targets+=("$one-unknown-linux-musl") ;;
        *-unknown-linux-musl) targets+=("$one") ;;
        *)
            echo "release.sh: unknown target $one (x86_64, aarch64 or <arch>-unknown-linux-musl)" >&2
            exit 2
            ;;
        esac
    done
done

mkdir -p "$DIST"
built=()
missing=()

# musl has dlopen in libc.a; libloading still asks for -ldl on Linux, which musl answers
# with an empty libdl.a that rustup's self-contained musl files lack: provide one.
# (A fixed path: a RUSTFLAGS that changed would rebuild every crate.)
mkdir -p "${CARGO_TARGET_DIR:-target}/musl-stubs"
stubs=$(cd "${CARGO_TARGET_DIR:-target}/musl-stubs" && pwd)
[ -f "$stubs/libdl.a" ] || ar rcs "$stubs/libdl.a"

# The C compiler for a target, or nothing.
c_compiler() {
    local arch=${1%%-*}
    if [ "$arch" = "$host_arch" ]; then
        for cc in "$arch-linux-musl-gcc" musl-gcc gcc clang cc; do
            command -v "$cc" >/dev/null 2>&1 && { echo "$cc"; return; }
        done
    else
        for cc in "$arch-linux-musl-gcc" "$arch-linux-gnu-gcc"; do
            command -v "$cc" >/dev/null 2>&1 && { echo "$cc"; return; }
        done
        command -v clang >/dev/null 2>&1 && { echo "clang --target=$arch-linux-musl"; return; }
    fi
}

for target in "${targets[@]}"; do
    arch=${target%%-*}
    echo "== $target"
    if ! rustc --print target-list | grep -qx "$target"; then
        missing+=("$target: this rustc does not know the target")
        continue
    fi
    sysroot=$(rustc --print sysroot)
    if [ ! -d "$sysroot/lib/rustlib/$target" ]; then
        if command -v rustup >/dev/null 2>&1 && rustup target add "$target"; then
            :
        else
            missing+=("$target: its standard library (rustup target add $target)")
            continue
        fi
    fi
    cc=$(c_compiler "$target")
    if [ -z "$cc" ]; then
        missing+=("$target: a C compiler for $arch (aarch64-linux-musl-gcc from musl.cc, gcc-$arch-linux-gnu, or clang)")
        continue
    fi
    env_target=$(echo "$target" | tr '[:lower:]-' '[:upper:]_')
    cc_var="CC_$(echo "$target" | tr '-' '_')"
    # Static, position-independent, linked by rust-lld with the self-contained musl CRT.
    if ! env "$cc_var=$cc" \
        "CARGO_TARGET_${env_target}_LINKER=rust-lld" \
        "CARGO_TARGET_${env_target}_RUSTFLAGS=-C target-feature=+crt-static -C link-self-contained=yes -L native=$stubs" \
        cargo build --release --locked --target "$target" --bin gpu-doctor; then
        missing+=("$target: the build failed (see above)")
        continue
    fi
    bin="${CARGO_TARGET_DIR:-target}/$target/release/gpu-doctor"
    kind=$(file -b "$bin")
    echo "   file: $kind"
    case "$kind" in
    *"statically linked"* | *"static-pie linked"*) ;;
    *)
        missing+=("$target: the binary is not static ($kind)")
        continue
        ;;
    esac
    if [ "$arch" = "$host_arch" ]; then
        "$bin" --version | sed 's/^/   /'
    fi
    cp "$bin" "$DIST/gpu-doctor-$version-$target"
    built+=("$DIST/gpu-doctor-$version-$target")
done

# The GPU node's binary: glibc, dynamically linked, for this machine's architecture (a
# static musl binary refuses to judge a machine: it cannot dlopen the driver). Built on
# the oldest glibc you support, since it runs on that glibc or newer. GNU=0 skips it.
if [ "${GNU:-1}" = 1 ]; then
    target="$host_arch-unknown-linux-gnu"
    echo "== $target (for GPU nodes)"
    if cargo build --release --locked --target "$target" --bin gpu-doctor; then
        bin="${CARGO_TARGET_DIR:-target}/$target/release/gpu-doctor"
        echo "   file: $(file -b "$bin")"
        "$bin" --version | sed 's/^/   /'
        cp "$bin" "$DIST/gpu-doctor-$version-$target"
        built+=("$DIST/gpu-doctor-$version-$target")
    else
        missing+=("$target: the build failed (see above)")
    fi
fi

if ((${#built[@]})); then
    (cd "$DIST" && sha256sum "${built[@]##*/}" >SHA256SUMS)
    echo "built:"
    for b in "${built[@]}"; do
        printf '  %s  %s bytes\n' "$b" "$(stat -c %s "$b")"
    done
fi
if ((${#missing[@]})); then
    echo "not built:" >&2
    for m in "${missing[@]}"; do
        echo "  $m" >&2
    done
    exit 1
fi
