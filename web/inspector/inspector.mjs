// sinew — see include/sinew.h for version and licence
// The inspector page (web/inspector/index.html; bundled with three.js by build.mjs, served by serve.mjs):
// compresses a dropped or served glTF in the browser with the wasm compressor at the bound the slider
// sets, and shows the source (three's AnimationMixer on the file's keyframes) and the packed file (played by
// sinew through the three.js adapter) side by side on one timeline, the joints coloured by their error, the
// error over time with the worst node and time, where the blob's bytes go, and the size against the raw
// keys and gltfpack's (when the server has gltfpack). The packed GLB downloads with a button.
// A BVH, CMU AMC (with its .asf) or ACL clip is converted to glTF in the page first (the wasm CLI's convert).
// Both views draw the skeleton (bones as lines, joints as points coloured by their error), and the camera frames
// the meshes and the joints over the clip. <html data-state> is idle, busy, ready (both views drawn, panels
// filled) or error: what tests and screenshots wait for.
// window.sinewInspector is the page's state and a small API for tests (web/browser-test/inspector.mjs).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

import { SinewMixer } from '../adapters/three.mjs';
import { compress, errors, info, pack, run } from '../compress.mjs';
import Sinew from '../sinew.mjs';

const $ = (id) => document.getElementById(id);
const ui = {
	drop: $('drop'), file: $('file'), error: $('error'), errorValue: $('error-value'), clip: $('clip'), play: $('play'),
	time: $('time'), timeValue: $('time-value'), download: $('download'), status: $('status'), plot: $('plot'),
	plotSummary: $('plot-summary'), compare: $('compare').tBodies[0], sizes: $('sizes').tBodies[0], report: $('report'),
};
const COLORS = { ok: new THREE.Color(0x2a9d4b), warn: new THREE.Color(0xd9a400), bad: new THREE.Color(0xd43a2f) };

const app = {
	state: 'idle', // idle | busy | ready | error
	lastError: null,
	name: null, bytes: null, resources: {},
	errorCm: 0.01, clip: 0, time: 0, playing: false,
	report: null, packReport: null, sizes: null, blob: null, packed: null, table: null, gltfpack: null,
	views: { source: null, compressed: null },
	server: null,
};
window.sinewInspector = app;

// app.state, and <html data-state> once what it says is on screen
function setState(state) {
	app.state = state;
	document.documentElement.dataset.state = state;
}

function status(text, isError = false) {
	ui.status.textContent = text;
	ui.status.classList.toggle('error', isError);
}

const fmt = (x, digits = 5) => (x === 0 ? '0' : Math.abs(x) < 1e-3 ? x.toExponential(2) : x.toFixed(digits));
const bytes = (n) => n.toLocaleString('en-US');

/* ---- error slider: 10^-3 .. 1 cm ---- */

function sliderCm() {
	return Number((10 ** Number(ui.error.value)).toPrecision(2));
}

function showErrorCm(cm) {
	ui.errorValue.textContent = `${cm} cm`;
	ui.error.setAttribute('aria-valuetext', `${cm} cm`);
}

/* ---- views ---- */

class View {
	constructor(canvas) {
		this.canvas = canvas;
		this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
		this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
		this.scene = new THREE.Scene();
		this.scene.background = new THREE.Color(0x1e2127);
		this.scene.add(new THREE.HemisphereLight(0xffffff, 0x444455, 2.2));
		const sun = new THREE.DirectionalLight(0xffffff, 1.6);
		sun.position.set(3, 6, 4);
		this.scene.add(sun);
		this.gltf = null;
		this.nodes = new Map(); // glTF node index -> Object3D
		this.rest = [];
		// the skeleton: a point per joint (coloured by its error) and a line per bone, drawn over the model
		this.points = new THREE.Points(new THREE.BufferGeometry(), new THREE.PointsMaterial({ size: 9, sizeAttenuation: false, vertexColors: true, depthTest: false }));
		this.bones = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0xc8d2de, depthTest: false, transparent: true, opacity: 0.85 }));
		this.points.renderOrder = 11, this.bones.renderOrder = 10;
		this.points.frustumCulled = this.bones.frustumCulled = false;
		this.scene.add(this.bones, this.points);
		this.joints = [];
	}

	// the joints of a clip (glTF node indices) and its bones: each joint to its nearest ancestor that is a joint
	setJoints(nodeIndices) {
		this.joints = nodeIndices.map((i) => this.nodes.get(i) ?? null);
		const index = new Map(this.joints.map((o, j) => [o, j]));
		this.pairs = [];
		this.joints.forEach((o, j) => {
			for (let p = o?.parent; p; p = p.parent)
				if (index.has(p)) { this.pairs.push(index.get(p), j); break; }
		});
		this.points.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * this.joints.length), 3));
		this.points.geometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(3 * this.joints.length), 3));
		this.bones.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * this.pairs.length), 3));
	}

	// the joints' world positions (after a pose), coloured by error / bound (null: all within)
	drawSkeleton(errorsNow, bound) {
		const pos = this.points.geometry.attributes.position, col = this.points.geometry.attributes.color;
		const line = this.bones.geometry.attributes.position, v = new THREE.Vector3();
		if (!pos) return;
		this.joints.forEach((o, j) => {
			if (o) o.getWorldPosition(v), pos.setXYZ(j, v.x, v.y, v.z);
			const e = errorsNow ? errorsNow[j] / bound : 0;
			const c = e >= 0.999 ? COLORS.bad : e >= 0.5 ? COLORS.warn : COLORS.ok;
			col.setXYZ(j, c.r, c.g, c.b);
		});
		for (let k = 0; k < this.pairs.length; k++) line.setXYZ(k, pos.getX(this.pairs[k]), pos.getY(this.pairs[k]), pos.getZ(this.pairs[k]));
		pos.needsUpdate = col.needsUpdate = line.needsUpdate = true;
	}

	setModel(gltf) {
		if (this.gltf) this.scene.remove(this.gltf.scene);
		this.gltf = gltf;
		this.scene.add(gltf.scene);
		this.nodes = new Map();
		const associations = gltf.parser.associations;
		gltf.scene.traverse((o) => {
			const a = associations.get(o);
			if (a && a.nodes !== undefined && !this.nodes.has(a.nodes)) this.nodes.set(a.nodes, o);
		});
		this.rest = [];
		gltf.scene.traverse((o) => this.rest.push([o, o.position.clone(), o.quaternion.clone(), o.scale.clone(),
			o.morphTargetInfluences ? [...o.morphTargetInfluences] : null]));
	}

	resetPose() {
		for (const [o, p, q, s, w] of this.rest) {
			o.position.copy(p), o.quaternion.copy(q), o.scale.copy(s);
			if (w) o.morphTargetInfluences.splice(0, w.length, ...w);
		}
	}

	render(camera) {
		const w = this.canvas.clientWidth || 640, h = this.canvas.clientHeight || 360;
		if (this.canvas.width !== Math.floor(w * this.renderer.getPixelRatio()) || this.canvas.height !== Math.floor(h * this.renderer.getPixelRatio()))
			this.renderer.setSize(w, h, false);
		camera.aspect = w / h;
		camera.updateProjectionMatrix();
		this.renderer.render(this.scene, camera);
	}
}

class SourceView extends View {
	setClip(c) {
		this.resetPose();
		if (this.mixer) this.mixer.stopAllAction();
		this.mixer = new THREE.AnimationMixer(this.gltf.scene);
		const clip = this.gltf.animations[c];
		this.action = clip ? this.mixer.clipAction(clip).setLoop(THREE.LoopOnce, 1) : null;
		if (this.action) this.action.clampWhenFinished = true, this.action.play();
	}

	setTime(t, errorsNow, bound) {
		if (!this.action) return;
		this.action.time = t;
		this.mixer.update(0);
		this.gltf.scene.updateMatrixWorld(true);
		if (errorsNow !== undefined) this.drawSkeleton(errorsNow, bound);
	}
}

class CompressedView extends View {
	setAnimation(animation) {
		this.animation = animation;
	}

	setClip(c) {
		this.resetPose();
		if (this.mixer) this.mixer.stopAllAction();
		this.mixer = new SinewMixer(this.gltf, this.animation); // three's AnimationMixer API, as the source view
		this.action = this.mixer.clipAction(c).setLoop(THREE.LoopOnce, 1);
		this.action.clampWhenFinished = true;
		this.action.play();
		this.setJoints(this.animation.clip(c).joints.map((j) => j.node));
	}

	setTime(t, errorsNow, bound) {
		this.action.time = t;
		this.mixer.invalidate().update(0);
		this.gltf.scene.updateMatrixWorld(true);
		this.drawSkeleton(errorsNow, bound);
	}
}

let camera = null, controls = [];

// A box around the meshes and the joints of the source over every clip (a skeleton alone has no mesh to bound),
// posed at 17 times of each.
function sceneBounds() {
	const view = app.views.source, box = new THREE.Box3(), v = new THREE.Vector3();
	const clips = Math.min(view.gltf.animations.length, 16);
	for (let c = 0; c < Math.max(clips, 1); c++) {
		if (clips) view.setClip(c);
		const d = view.gltf.animations[c]?.duration ?? 0;
		for (let k = 0; k <= 16; k++) {
			if (clips) view.setTime((d * k) / 16);
			view.gltf.scene.updateMatrixWorld(true);
			box.expandByObject(view.gltf.scene);
			for (const o of view.nodes.values()) box.expandByPoint(o.getWorldPosition(v));
		}
	}
	view.resetPose();
	return box;
}

function frameCamera(box) {
	const center = box.getCenter(new THREE.Vector3()), radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-3);
	const fov = 40, distance = (radius / Math.sin(THREE.MathUtils.degToRad(fov / 2))) * 1.05; // the whole sphere in view
	camera = new THREE.PerspectiveCamera(fov, 16 / 9, distance / 1000, distance + radius * 10);
	camera.position.copy(center).add(new THREE.Vector3(0.6, 0.35, 1).normalize().multiplyScalar(distance));
	camera.lookAt(center);
	for (const c of controls) c.dispose();
	controls = [app.views.source.canvas, app.views.compressed.canvas].map((canvas) => {
		const oc = new OrbitControls(camera, canvas);
		oc.target.copy(center);
		oc.update();
		oc.addEventListener('change', renderNow);
		return oc;
	});
}

/* ---- the error table: per row (time) and joint, from compress.mjs errors() ---- */

function prepareTable(t) {
	const order = [...t.times.keys()].sort((a, b) => t.times[a] - t.times[b]);
	const max = new Float64Array(t.times.length);
	for (let r = 0; r < t.times.length; r++) {
		let m = 0;
		for (let j = 0; j < t.joints; j++) m = Math.max(m, t.errors[r * t.joints + j]);
		max[r] = m;
	}
	return { ...t, order, max };
}

// the errors of every joint at the row nearest to time t
function errorsAt(table, t) {
	if (!table || !table.order.length) return null;
	let lo = 0, hi = table.order.length - 1;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (table.times[table.order[mid]] < t) lo = mid + 1;
		else hi = mid;
	}
	let r = table.order[lo];
	if (lo > 0 && Math.abs(table.times[table.order[lo - 1]] - t) < Math.abs(table.times[r] - t)) r = table.order[lo - 1];
	return table.errors.subarray(r * table.joints, (r + 1) * table.joints);
}

/* ---- panels ---- */

function drawPlot() {
	const canvas = ui.plot, table = app.table, clip = app.report?.clips[app.clip];
	const w = canvas.clientWidth || 800, h = canvas.clientHeight || 200, dpr = Math.min(2, window.devicePixelRatio || 1);
	canvas.width = Math.floor(w * dpr), canvas.height = Math.floor(h * dpr);
	const g = canvas.getContext('2d');
	g.setTransform(dpr, 0, 0, dpr, 0, 0);
	g.fillStyle = '#1e2127';
	g.fillRect(0, 0, w, h);
	if (!table || !clip) return;
	const duration = app.views.compressed.animation.clip(app.clip).duration || 1;
	const top = Math.max(app.errorCm * 1.15, ...table.max) || 1;
	const pad = { l: 56, r: 12, t: 10, b: 22 };
	const x = (t) => pad.l + (t / duration) * (w - pad.l - pad.r), y = (e) => h - pad.b - (e / top) * (h - pad.t - pad.b);
	g.strokeStyle = '#666', g.lineWidth = 1, g.font = '11px system-ui', g.fillStyle = '#bbb';
	g.beginPath(), g.moveTo(pad.l, pad.t), g.lineTo(pad.l, h - pad.b), g.lineTo(w - pad.r, h - pad.b), g.stroke();
	g.fillText(`${fmt(top, 4)} cm`, 4, pad.t + 8), g.fillText('0', pad.l - 12, h - pad.b), g.fillText(`${duration.toFixed(2)} s`, w - pad.r - 40, h - 6);
	g.strokeStyle = '#d43a2f', g.setLineDash([5, 4]);
	g.beginPath(), g.moveTo(pad.l, y(app.errorCm)), g.lineTo(w - pad.r, y(app.errorCm)), g.stroke();
	g.setLineDash([]);
	g.fillText(`bound ${app.errorCm} cm`, w - pad.r - 90, y(app.errorCm) - 4);
	g.strokeStyle = '#4a8fe0', g.lineWidth = 1.5;
	g.beginPath();
	table.order.forEach((r, i) => (i ? g.lineTo(x(table.times[r]), y(table.max[r])) : g.moveTo(x(table.times[r]), y(table.max[r]))));
	g.stroke();
	// the worst node and time the report names
	g.fillStyle = '#ffcc00';
	g.beginPath(), g.arc(x(clip.worst_time), y(clip.max_error_cm), 4, 0, 2 * Math.PI), g.fill();
	g.fillText(`${jointLabel(clip)} ${fmt(clip.max_error_cm)} cm`, Math.min(x(clip.worst_time) + 6, w - 160), Math.max(y(clip.max_error_cm) - 6, 12));
	g.strokeStyle = '#fff8', g.beginPath(), g.moveTo(x(app.time), pad.t), g.lineTo(x(app.time), h - pad.b), g.stroke();
}

// a report's worst joint: its name, else its index (glTF nodes need no names)
function jointLabel(clip) {
	return clip.worst_joint_name ? `joint ${clip.worst_joint_name}` : `joint ${clip.worst_joint}`;
}

function showPanels() {
	const r = app.report, c = r.clips[app.clip];
	ui.report.textContent = JSON.stringify(r, null, 1);
	ui.plotSummary.textContent = `Clip '${c.name ?? app.clip}': max error ${fmt(c.max_error_cm)} cm at ${jointLabel(c)}, ` +
		`t = ${c.worst_time.toFixed(4)} s (bound ${app.errorCm} cm; p99 ${fmt(c.p99_error_cm)} cm; ${c.samples_over_threshold} samples over).`;
	ui.plot.setAttribute('aria-label', `Error over time of clip ${c.name ?? app.clip}; the worst is ${fmt(c.max_error_cm)} cm at ${c.worst_time.toFixed(3)} s`);
	const raw = app.packReport.animation_bytes_before, rows = [
		['raw keyframes (the source accessors)', raw, 'the source'],
		[`sinew blob (pack at ${app.errorCm} cm)`, app.packReport.animation_bytes_after, `≤ ${app.errorCm} cm, measured ${fmt(r.max_error_cm)} cm`],
	];
	if (app.gltfpack?.bytes) rows.push([`gltfpack ${app.gltfpack.args.join(' ')} (${app.gltfpack.version})`, app.gltfpack.bytes, 'not bounded (quantization)']);
	else rows.push(['gltfpack', null, app.gltfpack?.error ?? 'not available (the server has no gltfpack)']);
	ui.compare.replaceChildren(...rows.map(([what, n, err]) => row([what, n === null ? '–' : bytes(n), n === null ? '' : `${(100 * n / raw).toFixed(1)} %`, err])));
	const s = app.sizes.sizes, total = s.total;
	const parts = Object.entries(s).filter(([k, v]) => !['total', 'segments', 'animated_tracks', 'knots', 'predicted_knots'].includes(k) && v > 0);
	ui.sizes.replaceChildren(...parts.map(([k, v]) => {
		const tr = row([k.replace(/_/g, ' '), bytes(Math.round(v)), '']);
		const bar = document.createElement('span');
		bar.className = 'bar';
		bar.style.width = `${Math.max(1, 200 * v / total)}px`;
		tr.lastChild.append(bar, ` ${(100 * v / total).toFixed(1)} %`);
		return tr;
	}), row(['total', bytes(total), `${s.segments} segments, ${s.knots} knots`]));
}

function row(cells) {
	const tr = document.createElement('tr');
	cells.forEach((text, i) => {
		const td = document.createElement(i ? 'td' : 'th');
		if (!i) td.scope = 'row';
		if (i === 1) td.className = 'num';
		td.textContent = text;
		tr.append(td);
	});
	return tr;
}

/* ---- timeline ---- */

function duration() {
	return app.views.compressed?.animation ? app.views.compressed.animation.clip(app.clip).duration : 0;
}

function pose(t) {
	app.time = Math.min(Math.max(t, 0), duration());
	const now = errorsAt(app.table, app.time);
	app.views.source.setTime(app.time, now, app.errorCm);
	app.views.compressed.setTime(app.time, now, app.errorCm);
	ui.time.value = String(app.time);
	ui.timeValue.textContent = `${app.time.toFixed(3)} s`;
	ui.time.setAttribute('aria-valuetext', `${app.time.toFixed(3)} seconds`);
}

function renderNow() {
	if (!camera || app.state !== 'ready') return;
	app.views.source.render(camera);
	app.views.compressed.render(camera);
}

let last = null;
function tick(now) {
	requestAnimationFrame(tick);
	if (app.state !== 'ready') return;
	if (app.playing) {
		const dt = last === null ? 0 : (now - last) / 1000, d = duration();
		pose(d > 0 ? (app.time + dt) % d : 0);
		drawPlot();
	}
	last = now;
	renderNow();
}

async function setClip(c) {
	app.clip = c;
	ui.clip.value = String(c);
	app.views.source.setClip(c);
	app.views.compressed.setClip(c);
	app.views.source.setJoints(app.views.compressed.animation.clip(c).joints.map((j) => j.node));
	app.table = prepareTable(await errors(app.bytes, app.blob, { name: app.name, resources: app.resources, errorCm: app.errorCm, clip: c }));
	ui.time.max = String(duration());
	showPanels();
	pose(Math.min(app.time, duration()));
	drawPlot();
	renderNow();
}

/* ---- compression ---- */

const loader = new GLTFLoader();

function parseGltf(data, resources) {
	const urls = new Map(Object.entries(resources).map(([k, v]) => [k.split('/').pop(), URL.createObjectURL(new Blob([v]))]));
	const manager = new THREE.LoadingManager();
	manager.setURLModifier((url) => urls.get(decodeURIComponent(url.split(/[?#]/)[0]).split('/').pop()) ?? url);
	const l = new GLTFLoader(manager);
	const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
	return l.parseAsync(buffer, '').finally(() => { for (const u of urls.values()) URL.revokeObjectURL(u); });
}

async function runCompression() {
	if (!app.bytes) return;
	setState('busy');
	for (const el of [ui.download, ui.play, ui.time, ui.clip, ui.error]) el.disabled = true;
	status(`Compressing ${app.name} at ${app.errorCm} cm in the browser…`);
	const started = performance.now();
	try {
		const options = { name: app.name, resources: app.resources, errorCm: app.errorCm };
		const packed = await pack(app.bytes, options);
		const compressed = await compress(app.bytes, options);
		app.packed = packed.glb, app.packReport = packed.report, app.report = compressed.report, app.blob = compressed.blob;
		app.sizes = await info(compressed.blob, { sizes: true });
		const ms = performance.now() - started;
		if (!app.views.source.gltf || app.views.source.name !== app.name) {
			app.views.source.setModel(await parseGltf(app.bytes, app.resources));
			app.views.source.name = app.name;
		}
		app.views.compressed.setModel(await loader.parseAsync(app.packed.buffer.slice(app.packed.byteOffset, app.packed.byteOffset + app.packed.byteLength), ''));
		if (app.views.compressed.animation) app.views.compressed.animation.dispose();
		app.views.compressed.setAnimation((await Sinew.loadPacked(app.packed)).animation);
		ui.clip.replaceChildren(...app.report.clips.map((c, i) => new Option(`${i}: ${c.name ?? `animation_${i}`} (${c.samples} samples)`, String(i))));
		if (!camera || app.framed !== app.name) app.bounds = sceneBounds(), frameCamera(app.bounds), app.framed = app.name;
		app.state = 'ready';
		await setClip(Math.min(app.clip, app.report.clips.length - 1));
		for (const el of [ui.download, ui.play, ui.time, ui.clip, ui.error]) el.disabled = false;
		status(`${app.label}: ${bytes(app.packReport.animation_bytes_before)} bytes of keyframes → ${bytes(app.packReport.animation_bytes_after)} bytes ` +
			`(${app.report.clips.length} clips, max error ${fmt(app.report.max_error_cm)} cm ≤ ${app.errorCm} cm), compressed in ${(ms / 1000).toFixed(2)} s.`);
		renderNow();
		setState('ready');
	} catch (e) {
		setState('error');
		app.lastError = e;
		ui.error.disabled = false;
		status(`${app.label ?? app.name}: ${e.message}`, true);
	}
}

async function gltfpackSizes() {
	app.gltfpack = null;
	if (!app.server?.gltfpack) return;
	const files = { [app.name]: app.bytes, ...app.resources };
	const body = JSON.stringify({ name: app.name, files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, toBase64(v)])) });
	try {
		const r = await fetch('./api/gltfpack', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
		app.gltfpack = await r.json();
	} catch (e) {
		app.gltfpack = { error: `gltfpack failed: ${e.message}` };
	}
}

function toBase64(u8) {
	let s = '';
	for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000));
	return btoa(s);
}

// a BVH, AMC or ACL clip as glTF, by the wasm CLI's `sinew convert` (the bytes the native CLI writes)
async function toGltf(name, data, resources) {
	const out = `${name.replace(/(\.acl\.sjson|\.[^.]*)$/i, '')}.glb`;
	status(`Converting ${name} to glTF in the browser…`);
	const r = await run(['convert', name, '-o', out, '-q'], { ...resources, [name]: data });
	if (r.code !== 0 || !r.files[out]) throw new Error(`sinew: ${r.errorMessage ?? r.stderr.trim()}`);
	return { name: out, data: r.files[out] };
}

async function open(name, data, resources) {
	app.label = name, app.clip = 0, app.time = 0;
	if (!/\.(glb|gltf)$/i.test(name)) {
		try {
			setState('busy');
			({ name, data } = await toGltf(name, data, resources));
			app.label = `${app.label} (as glTF)`, resources = {};
		} catch (e) {
			setState('error');
			app.lastError = e;
			return status(`${app.label}: ${e.message}`, true);
		}
	}
	app.name = name, app.bytes = data, app.resources = resources;
	await gltfpackSizes();
	await runCompression();
}

// files from the file input or a drop: the .glb/.gltf is the input, the rest its resources
async function openFiles(list) {
	const files = [...list];
	const main = files.find((f) => /\.(glb|gltf)$/i.test(f.name)) ?? files.find((f) => /\.(bvh|amc|acl\.sjson)$/i.test(f.name));
	if (!main) return status('Choose a .glb or .gltf file (with its .bin and images), or a .bvh, .amc (with its .asf) or .acl.sjson.', true);
	const resources = {};
	for (const f of files) if (f !== main) resources[f.name] = new Uint8Array(await f.arrayBuffer());
	await open(main.name, new Uint8Array(await main.arrayBuffer()), resources);
}

/* ---- controls ---- */

ui.file.addEventListener('change', () => openFiles(ui.file.files));
ui.drop.addEventListener('dragover', (e) => { e.preventDefault(); ui.drop.classList.add('over'); });
ui.drop.addEventListener('dragleave', () => ui.drop.classList.remove('over'));
window.addEventListener('dragover', (e) => e.preventDefault());
window.addEventListener('drop', (e) => {
	e.preventDefault();
	ui.drop.classList.remove('over');
	if (e.dataTransfer?.files?.length) openFiles(e.dataTransfer.files);
});
ui.error.addEventListener('input', () => showErrorCm(sliderCm()));
ui.error.addEventListener('change', () => {
	app.errorCm = sliderCm();
	showErrorCm(app.errorCm);
	runCompression();
});
ui.clip.addEventListener('change', () => setClip(Number(ui.clip.value)));
ui.time.addEventListener('input', () => { pose(Number(ui.time.value)); drawPlot(); renderNow(); });
ui.play.addEventListener('click', () => {
	app.playing = !app.playing;
	ui.play.textContent = app.playing ? 'Pause' : 'Play';
	ui.play.setAttribute('aria-pressed', String(app.playing));
	last = null;
});
ui.download.addEventListener('click', () => {
	const a = document.createElement('a');
	a.href = URL.createObjectURL(new Blob([app.packed], { type: 'model/gltf-binary' }));
	a.download = `${app.name.replace(/\.(glb|gltf)$/i, '')}.packed.glb`;
	document.body.append(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(a.href), 10000);
});
window.addEventListener('resize', () => { drawPlot(); renderNow(); });

// for tests: set the bound and wait for the result; pose both views at t and render
app.setErrorCm = (cm) => { app.errorCm = cm; ui.error.value = String(Math.log10(cm)); showErrorCm(cm); return runCompression(); };
app.setClip = (c) => setClip(c);
app.setTime = (t) => { pose(t); drawPlot(); renderNow(); };
app.renderNow = renderNow;
app.camera = () => camera;

/* ---- start: the model the server names, if any ---- */

setState('idle');
app.views.source = new SourceView($('source-view'));
app.views.compressed = new CompressedView($('compressed-view'));
requestAnimationFrame(tick);
drawPlot();
showErrorCm(app.errorCm);
(async () => {
	try {
		const r = await fetch('./api/status');
		if (!r.ok) return;
		app.server = await r.json();
		if (app.server.errorCm) app.errorCm = app.server.errorCm, ui.error.value = String(Math.log10(app.errorCm)), showErrorCm(app.errorCm);
		if (!app.server.model) return;
		const { name, files } = app.server.model;
		const get = async (f) => new Uint8Array(await (await fetch(`./model/${f.split('/').map(encodeURIComponent).join('/')}`)).arrayBuffer());
		const resources = {};
		for (const f of files) if (f !== name) resources[f] = await get(f);
		await open(name, await get(name), resources);
	} catch (e) {
		status(`Could not load the served model: ${e.message}`, true);
	}
})();
