# shellcheck shell=bash
# Shared helpers for Scripts/vm/{setup,run,smoke}. Sourced, not executed.
#
# Everything the harness builds lives in a cache directory keyed by the Debian
# kernel version, so nothing large is ever committed and a fresh machine (CI)
# rebuilds it with `Scripts/vm/setup`.

VM_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE_ROOT="${WAYMARK_VM_CACHE:-$HOME/.cache/waymark-vm}"

log()  { printf '[vm] %s\n' "$*" >&2; }
die()  { printf '[vm] error: %s\n' "$*" >&2; exit 1; }

# The Debian kernel we boot. The host may run a different kernel (it does on
# our dev machines), so never use `uname -r`: ask dpkg which image the
# linux-image-amd64 metapackage pulls in. WAYMARK_VM_KERNEL overrides.
debian_kernel_version() {
    if [[ -n "${WAYMARK_VM_KERNEL:-}" ]]; then
        echo "$WAYMARK_VM_KERNEL"; return
    fi
    local dep
    dep="$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null || true)"
    dep="${dep%% *}"                       # "linux-image-6.1.0-56-amd64 (= ...)"
    if [[ "$dep" == linux-image-* && -e "/boot/vmlinuz-${dep#linux-image-}" ]]; then
        echo "${dep#linux-image-}"; return
    fi
    # Fallback: newest Debian-style vmlinuz under /boot.
    local newest
    newest="$(ls -1 /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -n1 || true)"
    [[ -n "$newest" ]] || return 1
    echo "${newest#/boot/vmlinuz-}"
}

# Cache dir for one kernel version: vmlinux, built modules, initramfs.
kernel_cache_dir() { echo "$CACHE_ROOT/$1"; }
