import { Context, Data, type Effect } from "effect"

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
  /** MobileNetV2 feature vector (the node ending in feature_vector/SpatialSqueeze), L2-normalised. */
  readonly embedding: Float32Array
  /** From the nsfw classifier: P(porn) + P(hentai) + 0.5·P(sexy), in [0, 1]. */
  readonly adult: number
  /** Dominant colours, largest share first (up to 3, share ≥ 0.1), named from the shop palette. */
  readonly colors: ReadonlyArray<{ readonly name: string; readonly hex: string; readonly share: number }>
  /** COCO-80 CenterNet detections, score ≥ 0.3, up to 10. */
  readonly objects: ReadonlyArray<DetectedObject>
}

export class AnalyzeError extends Data.TaggedError("AnalyzeError")<{ readonly message: string; readonly cause?: unknown }> {}

export interface AnalyzeOptions {
  /** Run object detection too (default true); visual-search queries skip it unless asked. */
  readonly detect?: boolean
  /** Queries (a shopper waits) go before catalog image jobs. */
  readonly priority?: "query" | "batch"
}

export interface ImageAnalyzerService {
  readonly dimensions: number
  readonly analyze: (image: RgbImage, options?: AnalyzeOptions) => Effect.Effect<ImageAnalysis, AnalyzeError>
  readonly embed: (image: RgbImage, options?: Pick<AnalyzeOptions, "priority">) => Effect.Effect<Float32Array, AnalyzeError>
  readonly detect: (image: RgbImage, options?: Pick<AnalyzeOptions, "priority">) => Effect.Effect<ReadonlyArray<DetectedObject>, AnalyzeError>
}

/** The image models (features, adult score, colours, objects); the layer lives in image-analyzer/. */
export class ImageAnalyzer extends Context.Tag("ImageAnalyzer")<ImageAnalyzer, ImageAnalyzerService>() {}
