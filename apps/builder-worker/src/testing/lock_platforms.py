"""Does a hash-locked requirements file install on each Python and system it claims?

    python lock_platforms.py requirements.lock --python 3.11 3.13 --platform linux-aarch64 ...

For every entry of the lock (a `name==version ; marker` line and its `--hash`es) and every
target (a Python version on a platform) whose marker includes it, PyPI's own list of that
release's files is read (the simple API, PEP 691) and the entry must carry the sha256 of a wheel
that target can install (its tags, as `packaging` computes them), or of the release's sdist when
the release has no platform-specific wheels at all (a pure-Python package built anywhere).
With `--uv`, uv also resolves the lock for each target: a package the target needs that the
lock does not hold (gradio's audioop-lts on 3.13) is a gap too, which pip's --require-hashes
would refuse. Prints one JSON object: the targets, how many entries each needs, and every gap;
exits 1 when there is a gap. Needs PyPI and the `packaging` library (and uv for `--uv`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Set, Tuple

from packaging.markers import Marker
from packaging.tags import Tag, compatible_tags, cpython_tags, mac_platforms
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

# The oldest systems each platform's wheels are taken for: glibc 2.28 (Debian 10, Ubuntu 20.04,
# RHEL 8; PyTorch's Linux wheels need it) and macOS 14 (PyTorch's macOS wheels need it).
GLIBC = (2, 28)
MACOS = (14, 0)

# uv's names for the platforms (`--python-platform`).
UV_PLATFORMS = {
    "linux-x86_64": "x86_64-manylinux_2_28",
    "linux-aarch64": "aarch64-manylinux_2_28",
    "macos-arm64": "aarch64-apple-darwin",
}

PLATFORMS = {
    "linux-x86_64": ("linux", "Linux", "x86_64"),
    "linux-aarch64": ("linux", "Linux", "aarch64"),
    "macos-arm64": ("darwin", "Darwin", "arm64"),
}


def platform_tags(platform: str) -> List[str]:
    sys_platform, _, machine = PLATFORMS[platform]
    if sys_platform == "darwin":
        return list(mac_platforms(MACOS, machine))
    tags = [f"manylinux_{GLIBC[0]}_{minor}_{machine}" for minor in range(GLIBC[1], 4, -1)]
    legacy = {17: "manylinux2014", 12: "manylinux2010", 5: "manylinux1"}
    tags += [f"{name}_{machine}" for minor, name in legacy.items() if minor <= GLIBC[1]]
    return tags


def target_tags(python: str, platform: str) -> Set[Tag]:
    version = tuple(int(part) for part in python.split("."))
    platforms = platform_tags(platform)
    abi = f"cp{version[0]}{version[1]}"
    return set(cpython_tags(version, [abi], platforms)) | set(
        compatible_tags(version, abi, platforms)
    )


def marker_env(python: str, platform: str) -> Dict[str, str]:
    sys_platform, system, machine = PLATFORMS[platform]
    return {
        "python_version": python,
        "python_full_version": f"{python}.0",
        "sys_platform": sys_platform,
        "platform_system": system,
        "platform_machine": machine,
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "os_name": "posix",
    }


ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def parse_lock(text: str) -> List[Tuple[str, str, str, Set[str]]]:
    """(name, version, marker, sha256 hashes) for every entry of a `--generate-hashes` lock."""
    entries: List[Tuple[str, str, str, Set[str]]] = []
    for line in text.splitlines():
        match = ENTRY.match(line)
        if match:
            entries.append((match.group(1), match.group(2), match.group(3) or "", set()))
            continue
        hashed = re.match(r"^\s+--hash=sha256:([0-9a-f]{64})", line)
        if hashed and entries:
            entries[-1][3].add(hashed.group(1))
    return entries


def release_files(name: str, version: str) -> List[Tuple[str, str]]:
    """(filename, sha256) of every file PyPI serves for name==version."""
    request = urllib.request.Request(
        f"https://pypi.org/simple/{canonicalize_name(name)}/",
        headers={"Accept": "application/vnd.pypi.simple.v1+json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        files = json.load(response)["files"]
    wanted = canonicalize_name(name)
    out = []
    for file in files:
        filename = file["filename"]
        if filename.endswith(".whl"):
            try:
                _, wheel_version, _, _ = parse_wheel_filename(filename)
            except InvalidWheelFilename:
                continue  # an old release's name that no installer accepts today
            if str(wheel_version) != version:
                continue
        else:
            stem = re.sub(r"\.(tar\.gz|zip|tar\.bz2)$", "", filename)
            base, _, sdist_version = stem.rpartition("-")
            if canonicalize_name(base) != wanted or sdist_version != version:
                continue
        out.append((filename, file["hashes"].get("sha256", "")))
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("lock")
    parser.add_argument("--python", nargs="+", required=True)
    parser.add_argument("--platform", nargs="+", required=True, choices=sorted(PLATFORMS))
    parser.add_argument("--uv", help="uv, to check that the lock holds everything each needs")
    args = parser.parse_args()

    with open(args.lock, encoding="utf-8") as lock:
        entries = parse_lock(lock.read())
    # Versions whose files are local builds (torch 2.13.0+cpu) are not on PyPI: none here.
    with ThreadPoolExecutor(max_workers=16) as pool:
        files = list(pool.map(lambda entry: release_files(entry[0], entry[1]), entries))

    targets = [(python, platform) for python in args.python for platform in args.platform]
    needed: Dict[str, int] = {}
    gaps: List[str] = []
    for python, platform in targets:
        key = f"{python} {platform}"
        tags = target_tags(python, platform)
        env = marker_env(python, platform)
        count = 0
        for (name, version, marker, hashes), release in zip(entries, files):
            if marker and not Marker(marker).evaluate(env):
                continue
            count += 1
            wheels = [(f, h) for f, h in release if f.endswith(".whl")]
            fitting = [h for f, h in wheels if tags & set(parse_wheel_filename(f)[3])]
            if any(h in hashes for h in fitting):
                continue
            binary = any(
                any(tag.platform != "any" for tag in parse_wheel_filename(f)[3]) for f, _ in wheels
            )
            sdists = [h for f, h in release if not f.endswith(".whl")]
            if not binary and not wheels and any(h in hashes for h in sdists):
                continue  # pure Python, built from its sdist anywhere
            reason = "no wheel for it on PyPI" if not fitting else "its wheel's hash is not locked"
            gaps.append(f"{key}: {name}=={version} ({reason})")
        needed[key] = count
        if args.uv:
            wanted = {
                canonicalize_name(name)
                for name, _, marker, _ in entries
                if not marker or Marker(marker).evaluate(env)
            }
            resolved = subprocess.run(
                [args.uv, "pip", "compile", args.lock, "--quiet", "--no-header", "--no-annotate",
                 "--python-version", python, "--python-platform", UV_PLATFORMS[platform]],
                capture_output=True, text=True, check=False,
                # uv assumes macOS 12 unless told; the lock is for macOS 14 (see MACOS).
                env={**os.environ, "MACOSX_DEPLOYMENT_TARGET": f"{MACOS[0]}.{MACOS[1]}"},
            )
            if resolved.returncode != 0:
                gaps.append(f"{key}: uv cannot resolve the lock: {resolved.stderr.strip()[-300:]}")
            for line in resolved.stdout.splitlines():
                match = ENTRY.match(line.strip())
                if match and canonicalize_name(match.group(1)) not in wanted:
                    gaps.append(f"{key}: {match.group(1)}=={match.group(2)} is needed, not locked")
    print(json.dumps({"lock": args.lock, "entries": len(entries), "needed": needed, "gaps": gaps}))
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
