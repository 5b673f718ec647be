import { ImageAnalyzer } from "../ImageAnalyzer.js"

/** The name App.ts composes; the layer itself lives with its service, as TextEmbedder's does. */
export const ImageAnalyzerLive = ImageAnalyzer.layer
