#!/usr/bin/env node
// Independent judge of sinew's error guarantee (DESIGN §4), in node with three.js r187:
// compresses each file with the sinew CLI, decompresses it, loads the source and the result with
// three's GLTFLoader, plays every clip with three's AnimationMixer and compares, at every source key
// time and at the quarter, half and three-quarter points between keys, the world position of every
// glTF node's origin and of its 6 shell points (fixed at the rest pose d from the node, moved by every
// animated transform), plus morph weights and the non-node KHR_animation_pointer curves (sampled from
// the documents themselves). Any failure of a sinew stage fails the file unless allowed_skips.json
// names it. It shares no code with sinew's C error metric. See tests/independent/README.md.
//
//   node tests/independent/check_gltf.mjs [--cli PATH] [--error-cm 0.01] [--shell-cm 3] [--packed]
//        [--json] [--jobs N] [--import-args "ARGS"] FILE...
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

import { loadGltf } from './gltf_node.mjs';
import { FLOATS_PER_NODE, POINTS, SHELL_MODES, SceneEval, SinewPlayer, ThreePlayer, checkTimes, restOffsets, setExactSlerp } from './evaluate.mjs';
import { keyMagnitude, loadDocument, pointerCurves, sampleCurve } from './pointers.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');

// Float32 slack (README "Slack"): a fixed part plus a part relative to the node's distance from
// the scene origin (shell included), both in centimetres.
const DEFAULT_SLACK_CM = 1e-5;
const DEFAULT_SLACK_REL = 1e-7;
const DEFAULT_WEIGHT_PRECISION = 1e-4;
const DEFAULT_WEIGHT_SLACK = 1e-6;
const DEFAULT_MAX_TIMES = 50000;
const DEFAULT_SUBDIV = 4;
// KHR_animation_pointer curves: within 1e-4 of the value's largest magnitude over the clip (at least
// 1e-4), plus 1e-6 of it for float32 storage.
const DEFAULT_POINTER_PRECISION = 1e-4;
const DEFAULT_POINTER_SLACK = 1e-6;
const ALLOWED_SKIPS = join(HERE, 'allowed_skips.json');

const USAGE = `usage: node tests/independent/check_gltf.mjs [options] FILE...
  FILE              .gltf/.glb (compared against sinew decompress --source), or .bvh/.amc/.acl.sjson
                    (sinew convert vs sinew decompress, key times only)
  --cli PATH        sinew CLI (default: $SINEW_CLI, else ${join(REPO, 'build/sinew')})
  --error-cm E      threshold (default 0.01)
  --shell-cm D      shell distance (default 3)
  --packed          also check 'sinew pack' played through web/sinew.mjs (glTF only)
  --web PATH        sinew.mjs for --packed (default ${join(REPO, 'web/sinew.mjs')})
  --import-args S   extra CLI import options (e.g. "--unit-cm 5.644") for the FILEs after it
  --compress-args S extra options for every 'sinew compress' and 'sinew pack' (e.g. "--midpoint")
  --slack-cm X      fixed float32 slack in cm (default ${DEFAULT_SLACK_CM})
  --slack-rel X     slack per cm of distance from the scene origin (default ${DEFAULT_SLACK_REL})
  --weight-precision X  morph weight precision (default ${DEFAULT_WEIGHT_PRECISION})
  --pointer-precision X KHR_animation_pointer precision, relative to the curve's largest magnitude
                    (at least 1; default ${DEFAULT_POINTER_PRECISION})
  --allowed-skips F the allow-list of files that may be skipped (default ${ALLOWED_SKIPS})
  --trace           with --json: per clip the worst node error at every check time
  --shell-mode M    rest (default: DESIGN §4, points d from the node at the rest pose, moved by every
                    animated transform, the node's own scale included) | normalized (d along the unit
                    world axes at every time: blind to a node's own scale) | scaled (d * matrixWorld
                    columns); the last two for diagnosis
  --keys-only       check key times only (no in-between times)
  --subdiv N        check N - 1 evenly spaced times inside each key interval (default ${DEFAULT_SUBDIV}: the
                    quarter, half and three-quarter points; 2: the midpoint only)
  --output-times    also check the decompressed clip's key times and the times between them
  --three-slerp     LINEAR rotations with three's own slerpFlat (which lerps below dot 0.9995) instead of the
                    glTF spec's exact slerp (README "Slack")
  --three-raw       judge the poses as three composes them, float32 quaternions not normalized
                    (default: judged with unit quaternions, the raw figure is reported; README "Slack")
  --plus-only       shell points at +d only (3 + origin, like sinew's C metric) instead of ±d
  --max-times N     per clip, subsample evenly above N check times (default ${DEFAULT_MAX_TIMES})
  --compare REF TEST  compare two glTF files directly (no CLI): TEST's clips and nodes against REF's
  --compare-packed REF PACKED  judge a packed glTF another tool wrote (SINEW_compressed_animation, e.g. the
                    glTF-Transform step of web/gltf-transform.mjs) against its source REF: PACKED's scene
                    loaded by GLTFLoader, its clips played through web/sinew.mjs (no CLI)
  --match-names     with --compare: pair nodes by their (unique) names, not their indices (for a TEST
                    written by a tool that renumbers nodes, e.g. gltfpack -kn); unpaired ones are missing
  --convert-only    compare each glTF with 'sinew convert' of itself (no compression)
  --float32-floor   compare each glTF with itself after rounding every node's rest TRS to float32
                    (quaternions normalized first), as a float32 writer must: measures the slack
  --jobs N          files checked in parallel (default 1)
  --json            one JSON object on stdout
  --markdown        a markdown table of the results after the per-file lines
  --verbose         per-clip lines`;

function parseArgs(argv) {
	const o = {
		cli: process.env.SINEW_CLI || join(REPO, 'build/sinew'), errorCm: 0.01, shellCm: 3, packed: false,
		web: join(REPO, 'web/sinew.mjs'), slackCm: DEFAULT_SLACK_CM, slackRel: DEFAULT_SLACK_REL,
		weightPrecision: DEFAULT_WEIGHT_PRECISION, weightSlack: DEFAULT_WEIGHT_SLACK, shellMode: 'rest',
		pointerPrecision: DEFAULT_POINTER_PRECISION, pointerSlack: DEFAULT_POINTER_SLACK, allowedSkips: ALLOWED_SKIPS, trace: false,
		keysOnly: false, plusOnly: false, threeRaw: false, subdiv: DEFAULT_SUBDIV, outputTimes: false, maxTimes: DEFAULT_MAX_TIMES, convertOnly: false, float32Floor: false, jobs: 1, json: false, markdown: false, verbose: false, files: [],
	};
	let importArgs = [];
	o.compressArgs = [];
	const num = (s, name) => { const v = Number(s); if (!Number.isFinite(v)) throw new Error(`${name}: not a number: ${s}`); return v; };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i], next = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
		switch (a) {
			case '--cli': o.cli = next(); break;
			case '--error-cm': o.errorCm = num(next(), a); break;
			case '--shell-cm': o.shellCm = num(next(), a); break;
			case '--packed': o.packed = true; break;
			case '--web': o.web = resolve(next()); break;
			case '--import-args': importArgs = next().split(/\s+/).filter(Boolean); break;
			case '--compress-args': o.compressArgs = next().split(/\s+/).filter(Boolean); break;
			case '--slack-cm': o.slackCm = num(next(), a); break;
			case '--slack-rel': o.slackRel = num(next(), a); break;
			case '--weight-precision': o.weightPrecision = num(next(), a); break;
			case '--shell-mode': o.shellMode = next(); if (!SHELL_MODES.includes(o.shellMode)) throw new Error(`--shell-mode ${o.shellMode}: one of ${SHELL_MODES.join(', ')}`); break;
			case '--pointer-precision': o.pointerPrecision = num(next(), a); break;
			case '--allowed-skips': o.allowedSkips = resolve(next()); break;
			case '--trace': o.trace = true; break;
			case '--keys-only': o.keysOnly = true; break;
			case '--plus-only': o.plusOnly = true; break;
			case '--three-raw': o.threeRaw = true; break;
			case '--three-slerp': o.threeSlerp = true; break;
			case '--output-times': o.outputTimes = true; break;
			case '--subdiv': o.subdiv = Math.max(2, num(next(), a) | 0); break;
			case '--max-times': o.maxTimes = num(next(), a); break;
			case '--compare': { const ref = next(), test = next(); o.files.push({ path: ref, against: test, importArgs }); break; }
			case '--compare-packed': { const ref = next(), test = next(); o.files.push({ path: ref, packedAgainst: test, importArgs }); break; }
			case '--match-names': o.matchNames = true; break;
			case '--convert-only': o.convertOnly = true; break;
			case '--float32-floor': o.float32Floor = true; break;
			case '--jobs': o.jobs = Math.max(1, num(next(), a) | 0); break;
			case '--json': o.json = true; break;
			case '--markdown': o.markdown = true; break;
			case '--verbose': o.verbose = true; break;
			case '-h': case '--help': console.log(USAGE); process.exit(0); break;
			default:
				if (a.startsWith('--')) throw new Error(`unknown option ${a}\n${USAGE}`);
				o.files.push({ path: a, importArgs });
		}
	}
	return o;
}

const isGltf = (p) => /\.(gltf|glb)$/i.test(p);

function runCli(o, args) {
	const r = spawnSync(o.cli, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
	if (r.error) throw new Error(`cannot run ${o.cli}: ${r.error.message}`);
	return { ok: r.status === 0, stdout: r.stdout, stderr: r.stderr.trim(), status: r.status, signal: r.signal };
}

// ---- skips: only the files allowed_skips.json names, at the stage and with the message it names ----

const allowLists = new Map();
export function loadAllowedSkips(path) {
	if (!allowLists.has(path)) {
		const list = JSON.parse(readFileSync(path, 'utf8')).files;
		if (!Array.isArray(list) || !list.every((e) => e.path && e.stage && e.expect && e.reason)) throw new Error(`${path}: every entry needs path, stage, expect and reason`);
		allowLists.set(path, list);
	}
	return allowLists.get(path);
}

const endsWithPath = (file, p) => { const f = file.replace(/\\/g, '/'); return f === p || f.endsWith('/' + p); };

// The allow-list entry that lets `stage` fail this way on this file, or null. A signal (crash), an
// exit status of 126 or more, or another message never qualifies.
function allowedSkip(o, file, stage, r) {
	if (r.signal || !(r.status >= 1 && r.status <= 125)) return null;
	const list = Array.isArray(o.allowedSkips) ? o.allowedSkips : loadAllowedSkips(o.allowedSkips);
	return list.find((e) => e.stage === stage && endsWithPath(file, e.path) && r.stderr.includes(e.expect)) ?? null;
}

class Skip extends Error {}

// Runs one sinew stage; a failure throws (the file fails) unless the allow-list names it (Skip).
function stage(o, file, name, args) {
	const r = runCli(o, [name, ...args]);
	if (r.ok) return r;
	const how = r.signal ? `killed by ${r.signal}` : `exit ${r.status}`;
	const allowed = allowedSkip(o, file, name, r);
	const e = new (allowed ? Skip : Error)(`sinew ${name} (${how}): ${r.stderr || '(no message)'}`);
	e.allowed = allowed;
	throw e;
}

// ---- comparison of two evaluated scenes ----

// Accumulates, over times, the largest node error and the largest morph weight difference between
// a reference SceneEval and a test SceneEval (glTF node indices matched).
class Comparison {
	constructor(ref, test, o) {
		this.ref = ref;
		this.test = test;
		this.o = o;
		if (o.matchNames) { // a tool that renumbers nodes: skin joints by their place in the skins, the rest by unique name
			const byNode = new Map(), rs = ref.json.skins ?? [], ts = test.json.skins ?? [];
			if (rs.length === ts.length && rs.every((s, i) => s.joints.length === ts[i].joints.length))
				rs.forEach((s, i) => s.joints.forEach((n, k) => byNode.set(n, ts[i].joints[k])));
			const unique = (s) => { const m = new Map(); s.indices.forEach((n) => { const name = s.json.nodes?.[n]?.name; if (name) m.set(name, m.has(name) ? -1 : n); }); return m; };
			const rn = unique(ref), tn = unique(test);
			this.pair = ref.indices.map((n) => {
				const name = ref.json.nodes?.[n]?.name;
				const t = byNode.get(n) ?? (name && rn.get(name) >= 0 ? tn.get(name) : undefined);
				return t === undefined || t < 0 ? -1 : test.slot.get(t) ?? -1;
			});
			// Then the nodes names leave unpaired (unnamed, or a name a bone and a mesh share): the default
			// scene's roots by their place when both scenes have as many, and a child of paired parents by
			// its name (or by having none) when one child of the partner alone matches it.
			const taken = new Set(this.pair.filter((m) => m >= 0));
			const take = (k, t) => { const m = test.slot.get(t); if (m === undefined || taken.has(m)) return false; this.pair[k] = m; taken.add(m); return true; };
			const roots = (j) => j.scenes?.[j.scene ?? 0]?.nodes ?? [];
			const rr = roots(ref.json), tr = roots(test.json);
			if (rr.length === tr.length) rr.forEach((n, i) => { const k = ref.slot.get(n); if (k !== undefined && this.pair[k] < 0 && ref.json.nodes[n]?.name === test.json.nodes?.[tr[i]]?.name) take(k, tr[i]); });
			const parentOf = (j) => { const p = new Map(); (j.nodes ?? []).forEach((node, i) => (node.children ?? []).forEach((c) => p.set(c, i))); return p; };
			const rp = parentOf(ref.json);
			for (let changed = true; changed;) {
				changed = false;
				ref.indices.forEach((n, k) => {
					if (this.pair[k] >= 0 || !rp.has(n)) return;
					const pk = ref.slot.get(rp.get(n)), pm = pk === undefined ? -1 : this.pair[pk];
					if (pm < 0) return;
					const name = ref.json.nodes[n].name;
					let kids = (test.json.nodes?.[test.indices[pm]]?.children ?? []).filter((c) => test.json.nodes[c]?.name === name && !taken.has(test.slot.get(c)));
					if (kids.length > 1) { // those whose children include the partner of one of this node's
						const mine = (ref.json.nodes[n].children ?? []).map((c) => this.pair[ref.slot.get(c)] ?? -1).filter((m) => m >= 0).map((m) => test.indices[m]);
						kids = kids.filter((c) => (test.json.nodes[c].children ?? []).some((x) => mine.includes(x)));
					}
					if (kids.length === 1 && take(k, kids[0])) changed = true;
				});
			}
		} else this.pair = ref.indices.map((n) => test.slot.get(n) ?? -1);
		// Morph weights by the same pairing; with --match-names, a node whose partner has no weights takes
		// the partner's one child holding as many (gltfpack moves a mesh into a child node that dequantizes it).
		this.wpair = this.pair.map((m, k) => {
			const want = ref.weights[k].length;
			if (!o.matchNames || m < 0 || !want || test.weights[m].length === want) return m;
			const kids = (test.json.nodes?.[test.indices[m]]?.children ?? []).map((c) => test.slot.get(c) ?? -1).filter((c) => c >= 0 && test.weights[c].length === want);
			return kids.length === 1 ? kids[0] : m;
		});
		this.missing = ref.indices.filter((n, k) => this.pair[k] < 0);
		this.thr = o.errorCm / 100;
		this.max = 0; this.maxKey = 0; this.maxMid = 0;
		this.worst = null;          // { node, time, key }
		this.over = 0;              // (node, time) pairs above threshold + slack
		this.worstExcessCm = -Infinity; // largest error - (threshold + slack), cm
		this.maxOriginCm = 0;       // origin-only error (for information)
		this.maxRawCm = 0;          // the same error in the other view (three's raw quaternions by default)
		this.maxRel = 0;            // largest error / (distance from the scene origin + shell), for the slack
		this.wMax = 0; this.wWorst = null; this.wOver = 0; this.wCount = 0;
		this.vMax = 0; this.vWorst = null; this.vOver = 0; this.vCount = 0; // morph vertices (cm)
		this.wMissing = 0;
		this.nodesCompared = ref.indices.length - this.missing.length;
		this.trace = o.trace ? [] : null;
	}

	// Rest mode: the test's nodes take the reference's local offsets (DESIGN §4: computed once, from the
	// source), node by node as paired.
	shareOffsets(off) {
		this.ref.setOffsets(off);
		const t = new Float64Array(this.test.objects.length * 3);
		this.pair.forEach((m, k) => { if (m >= 0) t.set(off.subarray(3 * k, 3 * k + 3), 3 * m); });
		this.test.setOffsets(t);
	}

	add(t, isKey) {
		const o = this.o;
		const rp = o.threeRaw ? this.ref.raw : this.ref.points, tp = o.threeRaw ? this.test.raw : this.test.points;
		const rr = o.threeRaw ? this.ref.points : this.ref.raw, tr = o.threeRaw ? this.test.points : this.test.raw;
		let timeMax = 0, timeNode = null;
		for (let k = 0; k < this.pair.length; k++) {
			const m = this.pair[k];
			if (m < 0) continue;
			const a = k * FLOATS_PER_NODE, b = m * FLOATS_PER_NODE;
			let r2 = 0; // the other view (raw three when judging unit quaternions, and vice versa), reported only
			for (let p = 0; p < 3 * POINTS; p += 3) {
				const dx = rr[a + p] - tr[b + p], dy = rr[a + p + 1] - tr[b + p + 1], dz = rr[a + p + 2] - tr[b + p + 2];
				const d2 = dx * dx + dy * dy + dz * dz;
				if (d2 > r2) r2 = d2;
			}
			if (Math.sqrt(r2) * 100 > this.maxRawCm) this.maxRawCm = Math.sqrt(r2) * 100;
			let e2 = 0;
			for (let p = 0; p < POINTS; p++) {
				const dx = rp[a + 3 * p] - tp[b + 3 * p], dy = rp[a + 3 * p + 1] - tp[b + 3 * p + 1], dz = rp[a + 3 * p + 2] - tp[b + 3 * p + 2];
				const d2 = dx * dx + dy * dy + dz * dz;
				if (p === 0 && Math.sqrt(d2) * 100 > this.maxOriginCm) this.maxOriginCm = Math.sqrt(d2) * 100;
				if (d2 > e2 || Number.isNaN(d2)) e2 = Number.isNaN(d2) ? Infinity : d2;
			}
			const e = Math.sqrt(e2);
			if (e > timeMax || timeNode === null) { timeMax = e; timeNode = this.ref.indices[k]; }
			const distCm = Math.hypot(rp[a], rp[a + 1], rp[a + 2]) * 100 + o.shellCm;
			const slackCm = o.slackCm + o.slackRel * distCm;
			const excess = e * 100 - (o.errorCm + slackCm);
			if ((e * 100) / distCm > this.maxRel) this.maxRel = (e * 100) / distCm;
			if (excess > 0) this.over++;
			if (excess > this.worstExcessCm) this.worstExcessCm = excess;
			if (e > this.max || this.worst === null) {
				this.max = e;
				this.worst = { node: this.ref.indices[k], time: t, key: !!isKey, slackCm };
			}
			if (isKey) { if (e > this.maxKey) this.maxKey = e; } else if (e > this.maxMid) this.maxMid = e;
		}
		if (this.trace) this.trace.push([t, timeMax * 100, timeNode]);
		// morph weights (DESIGN §4): a weight whose target moves vertex positions is judged on the vertices, the
		// largest distance the test's weights put a vertex from where the reference's put it (the reference's pose,
		// three's own morphing and skinning, world units), within the threshold; one whose target moves no position
		// by its value, within the weight precision
		for (let k = 0; k < this.wpair.length; k++) {
			const m = this.wpair[k];
			const rw = this.ref.weights[k];
			if (!rw.length) continue;
			if (m < 0 || this.test.weights[m].length !== rw.length) { this.wMissing++; continue; }
			const tw = this.test.weights[m], byVertex = this.ref.byVertex[k];
			if (byVertex.includes(1)) {
				this.vCount++;
				const r = this.ref.morphVertexError(k, tw), e = r ? r.error * 100 : 0;
				if (e > o.errorCm + o.slackCm) this.vOver++;
				if (r && (e > this.vMax || this.vWorst === null)) { this.vMax = e; this.vWorst = { node: this.ref.indices[k], vertex: r.vertex, primitive: r.mesh, time: t }; }
			}
			for (let i = 0; i < rw.length; i++) {
				if (byVertex[i]) continue;
				let d = Math.abs(rw[i] - tw[i]);
				if (Number.isNaN(d)) d = Infinity;
				this.wCount++;
				if (d > o.weightPrecision + o.weightSlack) this.wOver++;
				if (d > this.wMax || this.wWorst === null) {
					this.wMax = d;
					this.wWorst = { node: this.ref.indices[k], target: i % (this.ref.morphs[k][0]?.rest.length || 1), time: t };
				}
			}
		}
	}

	result() {
		const w = this.worst;
		return {
			max_error_cm: this.max * 100,
			max_error_at_keys_cm: this.maxKey * 100,
			max_error_at_midpoints_cm: this.maxMid * 100,
			max_origin_error_cm: this.maxOriginCm,
			max_relative_error: this.maxRel,
			[this.o.threeRaw ? 'max_error_unit_quat_cm' : 'max_error_three_raw_cm']: this.maxRawCm,
			worst_node: w ? w.node : null,
			worst_node_name: w ? this.ref.nodeName(w.node) : null,
			worst_time: w ? w.time : null,
			worst_at_key: w ? w.key : null,
			worst_slack_cm: w ? w.slackCm : null,
			worst_excess_cm: Number.isFinite(this.worstExcessCm) ? this.worstExcessCm : null,
			over: this.over,
			nodes: this.nodesCompared,
			missing_nodes: this.missing,
			weights: this.wCount,
			max_weight_error: this.wMax,
			worst_weight: this.wWorst ? { ...this.wWorst, node_name: this.ref.nodeName(this.wWorst.node) } : null,
			weights_over: this.wOver,
			weights_missing: this.wMissing,
			morph_vertex_checks: this.vCount,
			max_morph_vertex_error_cm: this.vMax,
			worst_morph_vertex: this.vWorst ? { ...this.vWorst, node_name: this.ref.nodeName(this.vWorst.node) } : null,
			morph_vertex_over: this.vOver,
			pass: this.over === 0 && this.wOver === 0 && this.vOver === 0 && this.missing.length === 0 && this.wMissing === 0,
			...(this.trace ? { trace: this.trace } : {}),
		};
	}
}

// KHR_animation_pointer curves three does not play, judged from the documents: the source's curves
// sampled at the check times (precision 1e-4 of the largest magnitude the source value reaches over
// the clip, keys and check times, at least 1e-4) against the output's curves of the same pointers
// (decompressed glTF) or the packed blob's scalar tracks with that `pointer` (web/sinew.mjs).
class PointerComparison {
	constructor(source, times, o, skipped = []) {
		this.o = o;
		this.skipped = skipped;
		this.entries = [...source.values()].map((c) => {
			const n = c.components, ref = new Float64Array(times.length * n), buf = new Float64Array(n);
			let mag = keyMagnitude(c);
			for (let i = 0; i < times.length; i++) {
				sampleCurve(c, times[i], buf);
				for (let j = 0; j < n; j++) { ref[i * n + j] = buf[j]; const a = Math.abs(buf[j]); if (a > mag || Number.isNaN(a)) mag = Number.isNaN(a) ? Infinity : a; }
			}
			const scale = Math.max(1, mag);
			return { pointer: c.pointer, n, ref, precision: o.pointerPrecision * scale, slack: o.pointerSlack * scale, max: 0, ratio: 0, worst: null, over: 0, missing: null, curve: null, tracks: null, buf };
		});
	}

	get count() { return this.entries.length; }

	bindCurves(curves) {
		for (const e of this.entries) {
			const c = curves.get(e.pointer);
			if (!c) e.missing = 'not in the output';
			else if (c.components !== e.n) e.missing = `${c.components} components in the output, ${e.n} in the source`;
			else e.curve = c;
		}
	}

	bindPacked(byPointer) {
		for (const e of this.entries) {
			const list = byPointer.get(e.pointer);
			const covered = new Set();
			for (const tr of list ?? []) for (let c = 0; c < tr.components; c++) covered.add(tr.first + c);
			if (!list) e.missing = 'no scalar track of the packed animation has this pointer';
			else if (![...Array(e.n).keys()].every((j) => covered.has(j))) e.missing = `the packed tracks hold floats ${[...covered].sort((a, b) => a - b).join(',')} of ${e.n}`;
			else e.tracks = list;
		}
	}

	_one(e, i, t, j, v) {
		let d = Math.abs(e.ref[i * e.n + j] - v);
		if (Number.isNaN(d)) d = Infinity;
		if (d > e.precision + e.slack) e.over++;
		if (d > e.max || e.worst === null) { e.max = d; e.worst = { time: t, component: j, source: e.ref[i * e.n + j], output: v }; }
	}

	// check time i (= t): the output curves, or the packed pose just sampled (SinewPlayer.sampled)
	add(i, t, sampled = null) {
		for (const e of this.entries) {
			if (e.curve) {
				sampleCurve(e.curve, t, e.buf);
				for (let j = 0; j < e.n; j++) this._one(e, i, t, j, e.buf[j]);
			} else if (e.tracks && sampled) {
				for (const tr of e.tracks) for (let c = 0; c < tr.components; c++) if (tr.first + c < e.n) this._one(e, i, t, tr.first + c, sampled[tr.offset + c]);
			}
		}
	}

	result() {
		let worst = null, over = 0;
		const missing = [];
		for (const e of this.entries) {
			over += e.over;
			if (e.missing) { missing.push({ pointer: e.pointer, why: e.missing }); continue; }
			const ratio = e.max / e.precision;
			if (worst === null || ratio > worst.ratio || Number.isNaN(ratio)) worst = { pointer: e.pointer, error: e.max, precision: e.precision, ratio, ...e.worst };
		}
		return {
			pointers: this.entries.length,
			max_pointer_error: worst ? worst.error : 0,
			max_pointer_error_ratio: worst ? worst.ratio : 0,
			worst_pointer: worst,
			pointers_over: over,
			over_pointers: this.entries.filter((e) => e.over).map((e) => ({ pointer: e.pointer, error: e.max, precision: e.precision, over: e.over, time: e.worst.time })),
			pointers_missing: missing,
			pointers_not_judged: this.skipped,
			pass: over === 0 && missing.length === 0,
		};
	}
}

function matchClip(list, index, name) {
	if (list[index] && list[index].name === name) return list[index];
	return list.find((c) => c.name === name) ?? null;
}

// ---- one file ----

async function checkFile(spec, o) {
	setExactSlerp(!o.threeSlerp);
	const path = spec.path, gltf = isGltf(path);
	const res = { file: path, kind: gltf ? 'gltf' : 'keys', import_args: spec.importArgs, shell_mode: o.shellMode, clips: [], pass: false, skipped: false, error: null };
	const started = Date.now();
	const dir = mkdtempSync(join(tmpdir(), 'sinew-judge-'));
	try {
		if (!existsSync(path)) throw new Error('no such file');
		const thr = ['--error-cm', String(o.errorCm), '--shell-cm', String(o.shellCm)];
		const blob = join(dir, 'out.sinew'), out = join(dir, 'out.glb'), ref = join(dir, 'ref.glb'), packed = join(dir, 'packed.glb');
		let reported = null, refPath, outPath, packedPath = packed;
		const run = (name, args) => stage(o, path, name, args);
		if (spec.packedAgainst) { // only the packed file is judged (the source against itself stands in for the rest)
			if (!existsSync(spec.packedAgainst)) throw new Error(`no such file: ${spec.packedAgainst}`);
			refPath = path; outPath = path; packedPath = spec.packedAgainst;
		} else if (spec.against) {
			if (!existsSync(spec.against)) throw new Error(`no such file: ${spec.against}`);
			refPath = path; outPath = spec.against;
		} else if (o.float32Floor) {
			refPath = path; outPath = path;
		} else if (o.convertOnly) {
			run('convert', [path, '-o', out, '-q', ...spec.importArgs]);
			refPath = path; outPath = out;
		} else {
			const c = run('compress', [path, '-o', blob, '--json', '-q', ...thr, ...o.compressArgs, ...spec.importArgs]);
			try { reported = JSON.parse(c.stdout); } catch (e) { throw new Error(`sinew compress --json: not JSON (${e.message})`); }
			run('decompress', [blob, '-o', out, '-q', ...(gltf ? ['--source', path] : [])]);
			if (gltf) refPath = path;
			else {
				run('convert', [path, '-o', ref, '-q', ...spec.importArgs]);
				refPath = ref;
			}
			outPath = out;
			if (o.packed && gltf) run('pack', [path, '-o', packed, '-q', ...thr, ...o.compressArgs, ...spec.importArgs]);
		}
		res.reported_max_error_cm = reported ? reported.max_error_cm : null;
		const evalOpts = { shell: o.shellCm / 100, shellMode: o.shellMode, plusOnly: o.plusOnly };
		const srcL = await loadGltf(refPath), outL = await loadGltf(outPath);
		const warnings = [...srcL.warnings.map((w) => `source: ${w}`), ...outL.warnings.map((w) => `output: ${w}`)];
		const src = new SceneEval(srcL.gltf, srcL.json, evalOpts), dst = new SceneEval(outL.gltf, outL.json, evalOpts);
		if (o.float32Floor) dst.roundRestToFloat32();
		// the documents themselves, for the pointer curves three does not play
		const srcDoc = gltf ? loadDocument(refPath) : null, outDoc = gltf ? loadDocument(outPath) : null;
		let pk = null, anim = null;
		if ((o.packed && gltf && !o.convertOnly && !o.float32Floor && !spec.against) || spec.packedAgainst) {
			const Sinew = (await import(pathToFileURL(o.web).href)).default;
			const bytes = readFileSync(packedPath);
			const pl = await loadGltf(packedPath);
			pk = new SceneEval(pl.gltf, pl.json, evalOpts);
			anim = (await Sinew.loadPacked(bytes)).animation;
			res.packed_clips = anim.clipCount;
		}
		const keysOnly = o.keysOnly || !gltf;
		const srcClips = srcL.gltf.animations, outClips = outL.gltf.animations;
		res.node_count = src.indices.length;
		if (srcClips.length !== outClips.length) warnings.push(`clip count: source ${srcClips.length}, output ${outClips.length}`);
		for (let ci = 0; ci < srcClips.length; ci++) {
			const sc = srcClips[ci];
			const clipRes = { index: ci, name: sc.name, duration: sc.duration };
			res.clips.push(clipRes);
			const oc = matchClip(outClips, ci, sc.name);
			const rep = reported ? matchClip(reported.clips.map((c, i) => ({ ...c, name: c.name ?? `animation_${i}` })), ci, sc.name) : null;
			clipRes.reported_max_error_cm = rep ? rep.max_error_cm : null;
			if (!oc) { clipRes.error = 'clip missing in the output'; clipRes.pass = false; continue; }
			// GLTFLoader makes one clip per glTF animation, in order: the clip's index is its animation's
			const srcPtr = srcDoc ? pointerCurves(srcDoc, ci) : null;
			if (srcPtr) warnings.push(...srcPtr.warnings.map((w) => `source: ${w}`));
			const { times, keyMask, subsampled, keyCount } = checkTimes(sc, {
				keysOnly, maxTimes: o.maxTimes, subdiv: o.subdiv, extra: o.outputTimes && !keysOnly ? [oc] : [],
				keyTracks: srcPtr ? [...srcPtr.curves.values()].map((c) => c.times) : [],
			});
			Object.assign(clipRes, { check_times: times.length, key_times: keyCount, subsampled });
			const sp = new ThreePlayer(src, sc, warnings), op = new ThreePlayer(dst, oc, warnings);
			const cmp = new Comparison(src, dst, o);
			let pp = null, pcmp = null;
			if (pk) {
				let k = ci;
				if (!(k < anim.clipCount && anim.clip(k).name === sc.name)) {
					k = -1;
					for (let i = 0; i < anim.clipCount; i++) if (anim.clip(i).name === sc.name) { k = i; break; }
				}
				if (k >= 0) { pp = new SinewPlayer(pk, anim, k); pcmp = new Comparison(src, pk, o); }
				else clipRes.packed = { error: 'clip missing in the packed animation', pass: false };
			}
			if (o.shellMode === 'rest') {
				// DESIGN §4: local offsets d / sigma_k from the source's rest pose, a degenerate rest axis
				// taking the largest length M_k its column reaches over the source clip's check times
				const maxCols = new Float64Array(src.objects.length * 3);
				for (let i = 0; i < times.length; i++) { sp.pose(times[i]); src.columns(maxCols); }
				const off = restOffsets(src.restColumns, maxCols, o.shellCm / 100);
				let degenerate = 0;
				for (let i = 0; i < off.length; i++) if (!(src.restColumns[i] >= 1e-3 * maxCols[i])) degenerate++;
				clipRes.degenerate_rest_axes = degenerate;
				cmp.shareOffsets(off);
				if (pcmp) pcmp.shareOffsets(off);
			}
			let ptr = null, pptr = null;
			if (srcPtr && (srcPtr.curves.size || srcPtr.skipped.length)) {
				const oi = outClips.indexOf(oc);
				ptr = new PointerComparison(srcPtr.curves, times, o, srcPtr.skipped);
				ptr.bindCurves(pointerCurves(outDoc, oi).curves);
				if (pp) { pptr = new PointerComparison(srcPtr.curves, times, o, srcPtr.skipped); pptr.bindPacked(pp.pointerTracks()); }
			}
			for (let i = 0; i < times.length; i++) {
				const t = times[i];
				sp.at(t);
				op.at(t);
				cmp.add(t, keyMask[i]);
				if (ptr) ptr.add(i, t);
				if (pp) {
					pp.at(t);
					pcmp.add(t, keyMask[i]);
					if (pptr) pptr.add(i, t, pp.sampled);
				}
			}
			sp.dispose(); op.dispose();
			Object.assign(clipRes, cmp.result());
			if (ptr) {
				const pr = ptr.result();
				clipRes.pointer = pr;
				clipRes.pass = clipRes.pass && pr.pass;
			}
			if (clipRes.reported_max_error_cm !== null) clipRes.reported_diff_cm = Math.abs(clipRes.reported_max_error_cm - clipRes.max_error_cm);
			if (pcmp) {
				clipRes.packed = pcmp.result();
				if (pptr) {
					const pr = pptr.result();
					clipRes.packed.pointer = pr;
					clipRes.packed.pass = clipRes.packed.pass && pr.pass;
				}
				if (pp.missing.length) { clipRes.packed.pass = false; clipRes.packed.error = `joints map to absent nodes ${pp.missing.join(',')}`; }
			}
		}
		// file summary
		const ok = (c) => c.pass !== false && !c.error && (!c.packed || c.packed.pass);
		const worstOf = (get) => {
			let best = null;
			for (const c of res.clips) { const r = get(c); if (r && r.max_error_cm !== undefined && (best === null || r.max_error_cm > best.max_error_cm)) best = { ...r, clip: c.name }; }
			return best;
		};
		const w = worstOf((c) => c);
		res.max_error_cm = w ? w.max_error_cm : 0;
		res.worst = w ? { clip: w.clip, node: w.worst_node, node_name: w.worst_node_name, time: w.worst_time, at_key: w.worst_at_key } : null;
		const other = o.threeRaw ? 'max_error_unit_quat_cm' : 'max_error_three_raw_cm';
		res[other] = Math.max(0, ...res.clips.map((c) => c[other] ?? 0));
		res.max_weight_error = Math.max(0, ...res.clips.map((c) => c.max_weight_error ?? 0));
		res.weights_checked = res.clips.reduce((n, c) => n + (c.weights ?? 0), 0);
		res.morph_vertex_checks = res.clips.reduce((n, c) => n + (c.morph_vertex_checks ?? 0), 0);
		res.max_morph_vertex_error_cm = Math.max(0, ...res.clips.map((c) => c.max_morph_vertex_error_cm ?? 0));
		const worstPointer = (get) => {
			let best = null;
			for (const c of res.clips) { const p = get(c); if (p && p.worst_pointer && (best === null || p.worst_pointer.ratio > best.ratio)) best = { ...p.worst_pointer, clip: c.name }; }
			return best;
		};
		res.pointers_checked = res.clips.reduce((n, c) => n + (c.pointer?.pointers ?? 0), 0);
		if (res.pointers_checked) res.worst_pointer = worstPointer((c) => c.pointer);
		if (res.reported_max_error_cm !== null) res.reported_diff_cm = Math.abs(res.reported_max_error_cm - res.max_error_cm);
		if (pk) {
			const pw = worstOf((c) => c.packed);
			res.packed = {
				max_error_cm: pw ? pw.max_error_cm : 0,
				worst: pw ? { clip: pw.clip, node: pw.worst_node, node_name: pw.worst_node_name, time: pw.worst_time } : null,
				max_weight_error: Math.max(0, ...res.clips.map((c) => c.packed?.max_weight_error ?? 0)),
				max_morph_vertex_error_cm: Math.max(0, ...res.clips.map((c) => c.packed?.max_morph_vertex_error_cm ?? 0)),
				...(res.pointers_checked ? { worst_pointer: worstPointer((c) => c.packed?.pointer) } : {}),
				pass: res.clips.every((c) => !c.packed || c.packed.pass),
			};
		}
		res.subsampled = res.clips.some((c) => c.subsampled);
		res.check_times = res.clips.reduce((n, c) => n + (c.check_times ?? 0), 0);
		res.warnings = [...new Set(warnings)].slice(0, 20);
		res.pass = res.clips.every(ok) && srcClips.length === outClips.length && srcClips.length > 0;
		if (srcClips.length !== outClips.length) res.error = `clip count: source ${srcClips.length}, output ${outClips.length}`;
		if (srcClips.length === 0) res.error = 'no animation in the source';
		if (anim) anim.dispose();
	} catch (e) {
		res.error = e.message;
		res.pass = false;
		if (e instanceof Skip) { res.skipped = true; res.skip_reason = e.allowed.reason; }
	} finally {
		rmSync(dir, { recursive: true, force: true });
		res.seconds = (Date.now() - started) / 1000;
	}
	return res;
}

// ---- output ----

const f4 = (x) => (x === null || x === undefined ? '-' : x === 0 ? '0' : x < 1e-4 ? x.toExponential(2) : x.toFixed(x < 1 ? 5 : 3));

function line(r, o) {
	const name = r.file.length > 70 ? '...' + r.file.slice(-67) : r.file;
	if (r.skipped) return `SKIP  ${name}: allow-listed (${r.skip_reason}): ${r.error}`;
	if (r.error && !r.clips.length) return `FAIL  ${name}: ${r.error}`;
	const w = r.worst;
	let s = `${r.pass && (!r.packed || r.packed.pass) ? 'pass' : 'FAIL'}  ${name}: ${r.clips.length} clip(s), max ${f4(r.max_error_cm)} cm`;
	if (w) s += ` at node ${w.node} '${w.node_name}' clip '${w.clip}' t=${w.time.toFixed(5)}${w.at_key ? ' (key)' : ' (mid)'}`;
	const other = o.threeRaw ? r.max_error_unit_quat_cm : r.max_error_three_raw_cm;
	if (other !== undefined && Math.abs(other - r.max_error_cm) >= 5e-6) s += ` (${o.threeRaw ? 'unit quaternions' : 'three raw'} ${f4(other)})`;
	s += `, reported ${f4(r.reported_max_error_cm)} cm`;
	if (r.reported_diff_cm !== undefined) s += ` (|diff| ${f4(r.reported_diff_cm)})`;
	if (r.weights_checked) s += `, weights max ${f4(r.max_weight_error)}`;
	if (r.morph_vertex_checks) s += `, morph vertices max ${f4(r.max_morph_vertex_error_cm)} cm`;
	const ptr = (p) => (p ? `${f4(p.error)} (${(100 * p.ratio).toFixed(1)} % of ${f4(p.precision)}) on ${p.pointer}` : '-');
	if (r.pointers_checked) s += `, pointers (${r.pointers_checked}) max ${ptr(r.worst_pointer)}`;
	if (r.packed) s += `; packed max ${f4(r.packed.max_error_cm)} cm${r.morph_vertex_checks ? `, morph vertices ${f4(r.packed.max_morph_vertex_error_cm)} cm` : ''}${r.packed.worst_pointer ? `, pointers ${ptr(r.packed.worst_pointer)}` : ''}${r.packed.pass ? '' : ' FAIL'}`;
	if (r.subsampled) s += ' [times subsampled]';
	if (r.error) s += ` [${r.error}]`;
	s += ` (${r.seconds.toFixed(1)} s)`;
	if (o.verbose || !r.pass) {
		for (const c of r.clips) {
			const ok = c.pass && !c.error && (!c.packed || c.packed.pass);
			if (!o.verbose && ok) continue;
			s += `\n      ${ok ? 'ok  ' : 'FAIL'} clip ${c.index} '${c.name}': ${c.error ?? ''}`;
			if (c.max_error_cm !== undefined) {
				s += `max ${f4(c.max_error_cm)} cm (keys ${f4(c.max_error_at_keys_cm)}, mid ${f4(c.max_error_at_midpoints_cm)}) at node ${c.worst_node} '${c.worst_node_name}' t=${c.worst_time?.toFixed(5)}, `
					+ `reported ${f4(c.reported_max_error_cm)}, over ${c.over}, times ${c.check_times}`;
				if (c.weights) s += `, weights max ${f4(c.max_weight_error)} (over ${c.weights_over})`;
				if (c.morph_vertex_checks) {
					const v = c.worst_morph_vertex;
					s += `, morph vertices max ${f4(c.max_morph_vertex_error_cm)} cm${v ? ` (node ${v.node} '${v.node_name}' vertex ${v.vertex} of primitive ${v.primitive}, t=${v.time.toFixed(5)})` : ''}, over ${c.morph_vertex_over}`;
				}
				if (c.missing_nodes?.length) s += `, missing nodes ${c.missing_nodes.join(',')}`;
				if (c.weights_missing) s += `, ${c.weights_missing} node-times without the source's morph weights`;
			}
			const pdesc = (p) => {
				if (!p) return '';
				let t = `; pointers: ${p.pointers}, max ${p.worst_pointer ? `${ptr(p.worst_pointer)} at t=${p.worst_pointer.time.toFixed(5)} [${p.worst_pointer.component}] (source ${p.worst_pointer.source}, output ${p.worst_pointer.output})` : '-'}, over ${p.pointers_over}`;
				if (p.pointers_missing.length) t += `, missing ${p.pointers_missing.map((m) => `${m.pointer} (${m.why})`).join(', ')}`;
				return t;
			};
			if (c.pointer && (!c.pointer.pass || o.verbose)) s += pdesc(c.pointer);
			if (c.packed) s += `; packed ${c.packed.error ?? ''}${c.packed.max_error_cm !== undefined ? `max ${f4(c.packed.max_error_cm)} cm at node ${c.packed.worst_node} t=${c.packed.worst_time?.toFixed(5)}, weights ${f4(c.packed.max_weight_error)}${c.packed.morph_vertex_checks ? `, morph vertices ${f4(c.packed.max_morph_vertex_error_cm)} cm (over ${c.packed.morph_vertex_over})` : ''}` : ''}`
				+ (c.packed.pointer && (!c.packed.pointer.pass || o.verbose) ? pdesc(c.packed.pointer) : '');
		}
	}
	return s;
}

function markdown(results, o) {
	const rows = ['| file | clips | max error cm | worst node | clip, time | reported cm | abs(diff) cm | weights | packed cm | result |',
		'| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |'];
	for (const r of results) {
		const name = basename(r.file) + (r.import_args?.length ? ` (${r.import_args.join(' ')})` : '');
		if (r.skipped || (r.error && !r.clips.length)) { rows.push(`| ${name} | | | | | | | | | ${r.skipped ? `skip (allow-listed: ${r.skip_reason})` : 'FAIL'}: ${r.error} |`); continue; }
		const w = r.worst;
		rows.push(`| ${name} | ${r.clips.length} | ${f4(r.max_error_cm)} | ${w ? `${w.node} ${w.node_name}` : ''} | ${w ? `${w.clip}, ${w.time.toFixed(4)} ${w.at_key ? 'key' : 'mid'}` : ''} | ${f4(r.reported_max_error_cm)} | ${f4(r.reported_diff_cm)} | ${r.weights_checked ? f4(r.max_weight_error) : ''} | ${r.packed ? f4(r.packed.max_error_cm) : ''} | ${r.pass && (!r.packed || r.packed.pass) ? 'pass' : 'FAIL'} |`);
	}
	return rows.join('\n');
}

async function runPool(o) {
	const results = new Array(o.files.length);
	if (o.jobs <= 1 || o.files.length <= 1) {
		for (let i = 0; i < o.files.length; i++) {
			results[i] = await checkFile(o.files[i], o);
			if (!o.json) console.log(line(results[i], o));
		}
		return results;
	}
	let next = 0;
	const worker = () => new Promise((done) => {
		const w = new Worker(fileURLToPath(import.meta.url), { workerData: { o } });
		const give = () => {
			if (next >= o.files.length) { w.terminate(); done(); return; }
			const i = next++;
			w.once('message', (r) => { results[i] = r; if (!o.json) console.log(line(r, o)); give(); });
			w.postMessage(i);
		};
		w.on('error', (e) => { console.error(`worker: ${e.message}`); done(); });
		give();
	});
	await Promise.all(Array.from({ length: Math.min(o.jobs, o.files.length) }, worker));
	return results;
}

async function main() {
	let o;
	try { o = parseArgs(process.argv.slice(2)); } catch (e) { console.error(e.message); process.exit(2); }
	if (!o.files.length) { console.error(USAGE); process.exit(2); }
	try { loadAllowedSkips(o.allowedSkips); } catch (e) { console.error(`allowed skips: ${e.message}`); process.exit(2); }
	if (!existsSync(o.cli) && !o.files.every((f) => f.against) && !o.float32Floor) { console.error(`sinew CLI not found: ${o.cli} (--cli PATH or SINEW_CLI)`); process.exit(2); }
	const results = await runPool(o);
	const passed = results.filter((r) => r && !r.skipped && r.pass && (!r.packed || r.packed.pass)).length;
	const skipped = results.filter((r) => r && r.skipped).length;
	const failed = results.length - passed - skipped;
	if (o.json) {
		const settings = { cli: o.cli, error_cm: o.errorCm, shell_cm: o.shellCm, shell_mode: o.shellMode, plus_only: o.plusOnly, three_raw: o.threeRaw, subdiv: o.subdiv, output_times: o.outputTimes, slack_cm: o.slackCm, slack_rel: o.slackRel,
			weight_precision: o.weightPrecision, weight_slack: o.weightSlack, pointer_precision: o.pointerPrecision, pointer_slack: o.pointerSlack, allowed_skips: o.allowedSkips,
			packed: o.packed, keys_only: o.keysOnly, convert_only: o.convertOnly, float32_floor: o.float32Floor };
		console.log(JSON.stringify({ settings, files: results, passed, failed, skipped }, null, 1));
	} else {
		if (o.markdown) console.log(markdown(results, o));
		console.log(`${passed} passed, ${failed} failed, ${skipped} skipped${skipped ? ` (allow-listed in ${o.allowedSkips})` : ''}; shell ${o.shellMode}, subdiv ${o.subdiv}${o.packed ? ', decompressed and packed' : ''}`);
	}
	process.exitCode = failed ? 1 : 0;
}

export { checkFile, parseArgs, line };

if (!isMainThread) {
	const { o } = workerData;
	parentPort.on('message', async (i) => parentPort.postMessage(await checkFile(o.files[i], o)));
} else if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	main();
}
