# shellcheck shell=bash
# Shared by the bash scripts in scripts/ (sourced, not run).
# Sets REPO_ROOT and makes sure `swift` and `swift-format` can be found.

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
    PATH="/opt/swift/usr/bin:$PATH"
    export PATH
fi

# The directories holding Swift sources that swift-format looks after, relative to
# REPO_ROOT: only those that exist, plus the root manifest.
swift_source_paths() {
    local dir
    for dir in Modules Apps Tests Samples Fuzz scripts; do
        [[ -d "$REPO_ROOT/$dir" ]] && printf '%s\n' "$dir"
    done
    [[ -f "$REPO_ROOT/Package.swift" ]] && printf '%s\n' Package.swift
    return 0
}
