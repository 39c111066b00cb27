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

# For the scripts that print a list of checks (Scripts/test-packaging, Scripts/vm/service-check
# and deb-check): runs COMMAND, prints PASS NAME, or FAIL NAME with its output and counts the
# failure in $failures.
check() {  # check NAME COMMAND...
    local name=$1 output
    shift
    if output=$("$@" 2>&1); then echo "PASS $name"; else echo "FAIL $name"; echo "$output" | sed 's/^/     /'; failures=$((failures + 1)); fi
}

# Runs COMMAND with USER's ids and groups and a clean environment (in the VM checks).
as() {  # as USER COMMAND...
    local user=$1
    shift
    setpriv --reuid="$user" --regid="$user" --init-groups env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/ "$@"
}

# Runs COMMAND as USER in a login session of theirs: a session-*.scope in user-UID.slice,
# where logind puts a login's processes, so no systemd unit is the app (docs/authorization.md,
# "Who an app is"). In the VM checks, whose script runs in a unit of its own.
in_session() {  # in_session USER COMMAND...
    local user=$1
    shift
    systemd-run --quiet --scope --unit="session-$user-$RANDOM.scope" --slice="user-$(id -u "$user").slice" \
        setpriv --reuid="$user" --regid="$user" --init-groups env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/ "$@"
}

# Runs COMMAND as in_session does, in the foreground of a terminal (script(1) gives it a
# pseudo-terminal): as a person types it at a shell on the board, which the installed policy
# counts as in use.
at_terminal() {  # at_terminal USER COMMAND...
    SHELL=/bin/bash script --quiet --return --command "$(declare -f in_session); $(printf '%q ' in_session "$@")" /dev/null </dev/null
}

# The system packages every build needs (C libraries the drivers, the store and the MQTT bridge
# link against), the broker and clients the MQTT bridge's tests run (mosquitto) and the chronyd
# the time tests feed, and gpsd with its clients and Python module (the gpsd endpoint's tests and benchmark).
build_packages() {
    install_packages pkg-config libgpiod-dev libserialport-dev libsqlite3-dev libmosquitto-dev mosquitto mosquitto-clients chrony \
        gpsd gpsd-clients python3-gps
}

# The release build of waymarkd and waymark that Scripts/install and Scripts/package-deb ship:
# fully static (Swift stdlib and glibc linked in: no shared library mapped, the smallest
# resident size, nothing to depend on), in the scratch directory .build-install of the current
# directory. Prints the directory that holds them.
release_binaries() {
    build_packages
    local flags=(-c release --static-swift-stdlib -Xswiftc -static-executable --scratch-path .build-install)
    local product
    for product in waymarkd waymark; do
        swift build "${flags[@]}" --product "$product" >&2
    done
    swift build "${flags[@]}" --show-bin-path
}

# swift-argument-parser's generate-manual tool (what its generate-manual plugin runs), built in
# debug in .build of the current directory: it writes the waymark man page from the parser's
# own description of the commands (`waymark --experimental-dump-help`). Prints its path.
manual_generator() {
    swift build --product generate-manual >&2
    echo "$(swift build --show-bin-path)/generate-manual"
}

# `swift build` of the Benchmarks package, which depends on the root package by path. Right
# after files were added to the root package (a merge, a checkout), SwiftPM (6.3) sometimes
# compiles a module of it without the new file and fails with "cannot find ... in scope", and
# an immediate second build can fail the same way. So a failed build is tried once more from
# a clean build directory (same --package-path and --scratch-path).
bench_build() {
    swift build "$@" >&2 && return 0
    local where=() index
    local arguments=("$@")
    for ((index = 0; index + 1 < ${#arguments[@]}; index++)); do
        case ${arguments[index]} in
            --package-path | --scratch-path) where+=("${arguments[index]}" "${arguments[index + 1]}") ;;
        esac
    done
    echo "(building once more from a clean build directory)" >&2
    swift package "${where[@]}" clean >&2
    swift build "$@" >&2
}
