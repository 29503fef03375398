// sinew — see include/sinew.h for version and licence
// Types of web/adapters/world_binding.mjs (shared by the world adapters).
import type { SinewWorld, WorldBlob, WorldClip, WorldPlayer } from '../world.mjs';

export interface EngineAccess<N> {
	find(gltfNodeIndex: number): N | null | undefined;
	getLocal(node: N): ArrayLike<number>;
	morphs(node: N, target: number): { get(): number; set(v: number): void }[];
}
export interface CharacterBinding<N> {
	readonly player: WorldPlayer;
	readonly nodes: readonly number[];
	readonly targets: readonly N[];
	readonly morphs: readonly { get(): number; set(v: number): void }[][];
	scalarMap(clip: WorldClip): Uint32Array | null;
	/** The next writePose sets every output. */
	invalidate(): void;
}
export declare function bindCharacter<N>(world: SinewWorld, blobs: readonly WorldBlob[], engine: EngineAccess<N>, options?: { layers?: number }): CharacterBinding<N>;
export interface PoseSetters<N> {
	rotation(node: N, pose: Float32Array, offset: number): void;
	translation(node: N, pose: Float32Array, offset: number): void;
	scale(node: N, pose: Float32Array, offset: number): void;
}
export declare function writePose<N>(binding: CharacterBinding<N>, set: PoseSetters<N>): void;
export declare function gltfParticipation(json: any, animation: number, clip: WorldClip): Uint8Array | null;
export declare function applyGltfParticipation(json: any, blobs: readonly WorldBlob[]): void;
export declare class Events {
	addEventListener(type: string, fn: (event: any) => void): void;
	removeEventListener(type: string, fn: (event: any) => void): void;
	hasEventListener(type: string, fn: (event: any) => void): boolean;
	dispatchEvent(event: { type: string; [key: string]: unknown }): void;
}
