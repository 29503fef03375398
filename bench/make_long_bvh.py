#!/usr/bin/env python3
"""Writes a long BVH take by concatenating the MOTION frames of BVH files that share one skeleton
(identical HIERARCHY and frame time), cycling through them until the take lasts SECONDS. For the
streaming benchmarks (docs/benchmarks.md); the joins are cuts, as in an edited mocap reel.

usage: bench/make_long_bvh.py OUT.bvh SECONDS IN.bvh...
"""
import re
import sys


def read(path):
    text = open(path).read()
    head, motion = text.split('MOTION', 1)
    m = re.match(r'\s*Frames:\s*(\d+)\s*\n\s*Frame Time:\s*([\d.eE+-]+)\s*\n', motion)
    if not m:
        raise SystemExit(f'{path}: no MOTION header')
    frames = [line for line in motion[m.end():].splitlines() if line.strip()]
    return head, float(m.group(2)), frames[: int(m.group(1))]


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    out, seconds, inputs = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    takes = [read(p) for p in inputs]
    head, dt = takes[0][0], takes[0][1]
    takes = [t for t in takes if t[0] == head and abs(t[1] - dt) < 1e-9]
    frames, i = [], 0
    while len(frames) * dt < seconds:
        frames.extend(takes[i % len(takes)][2])
        i += 1
    frames = frames[: int(round(seconds / dt)) + 1]
    with open(out, 'w') as f:
        f.write(head + 'MOTION\n' + f'Frames: {len(frames)}\nFrame Time: {dt:.7f}\n' + '\n'.join(frames) + '\n')
    print(f'{out}: {len(frames)} frames at {1 / dt:g} Hz ({len(frames) * dt:.1f} s) from {len(takes)} takes')


main()
