import { Context, type Effect } from "effect"
import { BackendFailure } from "../../platform/BackendFailure.js"

/**
 * What the catalog and visual search learn from a picture: a feature vector (nsfwjs's
 * MobileNetV2Mid), an adult score (its own classifier), dominant colours, and COCO objects
 * (Human's CenterNet). The models run on worker threads, never on the api's event loop.
 */

/** A dominant colour of an image: its palette name, the cluster centre's hex, its share. */
export interface DominantColor {
  readonly name: string
  /** `#rrggbb` of the cluster centre. */
  readonly hex: string
  /** Of the product's pixels (the white studio background excluded), in (0, 1]. */
  readonly share: number
}

/** RGB bytes (3 per pixel, row-major) of any size; the analyser resizes for its models. */
export interface RgbImage {
  readonly data: Uint8Array
  readonly width: number
  readonly height: number
}

export interface DetectedObject {
  readonly classId: number
  readonly class: string
  /** Detector confidence in [0, 1]. */
  readonly score: number
  /** Relative to the image: top-left (0,0), bottom-right (1,1). */
  readonly rectangle: { readonly left: number; readonly top: number; readonly width: number; readonly height: number }
}

export interface ImageAnalysis {
  /** 1792-d MobileNetV2 features (the node ending in feature_vector/SpatialSqueeze), unit length. */
  readonly embedding: Float32Array
  /** From the nsfw classifier: P(porn) + P(hentai) + 0.5·P(sexy), in [0, 1]. */
  readonly adult: number
  /** Largest share first, up to 3, share ≥ 0.1; a white studio background is left out. */
  readonly colors: ReadonlyArray<DominantColor>
  /** COCO-80 detections, score ≥ 0.3, up to 10; empty when detection was not asked for. */
  readonly objects: ReadonlyArray<DetectedObject>
}

/** Which queue a request waits in (see AnalyzeOptions.priority). */
export type Priority = "query" | "batch" | "background"

/** Milliseconds one thread took to load each model and warm up. */
export interface LoadTimes {
  readonly features: number
  readonly detector: number
  readonly total: number
}

export class AnalyzeError extends BackendFailure("AnalyzeError") {}

export interface AnalyzeOptions {
  /** Run object detection too (default true): it makes an image several times as costly. */
  readonly detect?: boolean
  /**
   * Queries (a shopper waits) go before catalog images ("batch"), and those before
   * "background" work (the catalog's object-detection pass); analyze defaults to "batch".
   */
  readonly priority?: Priority
}

export interface ImageAnalyzerStats {
  /** Threads that have loaded the models and take work. */
  readonly readyWorkers: number
  /** Threads replaced after a crash. */
  readonly workerRestarts: number
  /** How long the most recently started thread took to load and warm up its models. */
  readonly modelLoadMs: LoadTimes | undefined
}

export interface ImageAnalyzerService {
  readonly dimensions: number
  readonly analyze: (image: RgbImage, options?: AnalyzeOptions) => Effect.Effect<ImageAnalysis, AnalyzeError>
  /** Features only, for a visual-search query; defaults to "query" priority. */
  readonly embed: (
    image: RgbImage,
    options?: Pick<AnalyzeOptions, "priority">
  ) => Effect.Effect<Float32Array, AnalyzeError>
  /** Objects only; defaults to "query" priority (the catalog's detection pass asks for "background"). */
  readonly detect: (
    image: RgbImage,
    options?: Pick<AnalyzeOptions, "priority">
  ) => Effect.Effect<ReadonlyArray<DetectedObject>, AnalyzeError>
  readonly stats: Effect.Effect<ImageAnalyzerStats>
}

export class ImageAnalyzer extends Context.Tag("ImageAnalyzer")<ImageAnalyzer, ImageAnalyzerService>() {}
