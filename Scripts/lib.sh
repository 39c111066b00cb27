# Shared helpers for the project's scripts (sourced, not run).

# Installs the Debian packages named as arguments that are not installed yet.
install_packages() {
    local missing=()
    local package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    ((${#missing[@]} == 0)) && return 0
    echo "Installing ${missing[*]} ..." >&2
    local sudo=()
    ((EUID == 0)) || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# The system packages every build needs (C libraries the drivers link against).
build_packages() {
    install_packages pkg-config libgpiod-dev libserialport-dev
}

# `swift build` of the Benchmarks package, which depends on the root package by path. When a
# source file was added to the root package since the last build in that build directory,
# SwiftPM (6.3) can compile a dependent module before it sees the new file and fail with
# "cannot find ... in scope"; the second build sees it. So a failed build is tried once more.
bench_build() {
    swift build "$@" >&2 && return 0
    echo "(building once more: SwiftPM may not have seen files added to the root package)" >&2
    swift build "$@" >&2
}
