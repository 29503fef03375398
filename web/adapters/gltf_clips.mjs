// sinew — see include/sinew.h for version and licence
// What the adapters read from the glTF JSON a blob was compressed from, when they have it: which glTF
// animation a sinew clip is (by name, else by index), the node properties it has channels for (an engine
// binds exactly those), and its duration as the engines take it (the last key time, float32: three's
// AnimationClip.duration and Babylon's group.to / fps, where loops wrap).

/** The index of the clip's glTF animation (by name, else the clip's index when the counts agree), or -1. */
export function gltfAnimationIndex(json, clip, index, clipCount) {
	const anims = json?.animations;
	if (!anims) return -1;
	const a = anims.findIndex((x, i) => (x.name ?? `animation_${i}`) === clip.name);
	if (a >= 0) return a;
	return anims.length === clipCount && index < anims.length ? index : -1;
}

/** "node:path" of each channel of glTF animation `a` (path: translation, rotation, scale, weights). */
export function gltfChannels(json, a) {
	return new Set((json.animations[a].channels ?? []).map((c) => `${c.target?.node}:${c.target?.path}`));
}

/**
 * The clip's duration as an engine plays it: the largest last key time (the input accessors' max, float32)
 * of its glTF animation, or, without the JSON, the blob's duration rounded to float32.
 */
export function engineDuration(json, clip, index, clipCount) {
	const a = gltfAnimationIndex(json, clip, index, clipCount);
	if (a >= 0) {
		const anim = json.animations[a];
		let end = -Infinity;
		for (const ch of anim.channels ?? []) {
			const max = json.accessors?.[anim.samplers?.[ch.sampler]?.input]?.max?.[0];
			if (Number.isFinite(max)) end = Math.max(end, Math.fround(max));
		}
		if (end > 0) return end;
	}
	return Math.fround(clip.duration);
}
