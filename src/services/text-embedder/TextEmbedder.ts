import { Context, type Effect } from "effect"
import { BackendFailure } from "../../platform/BackendFailure.js"

/**
 * Dense text vectors from all-MiniLM-L6-v2 (384-d, English; see TextModel.ts), computed on a
 * pool of worker threads so the api's event loop never runs the model.
 */
export class EmbedError extends BackendFailure("EmbedError") {}

export interface TextEmbedderStats {
  /** Document texts run through the model since start (a re-index that reuses a saved vector adds none). */
  readonly documentsEmbedded: number
  readonly queryCacheHits: number
  readonly queryCacheMisses: number
  readonly queryCacheSize: number
  /** Threads that have loaded the model and take work. */
  readonly readyWorkers: number
  /** Threads replaced after a crash. */
  readonly workerRestarts: number
}

export interface TextEmbedderService {
  readonly dimensions: number
  /** Document vectors, unit length, in input order. Texts are truncated to 2,000 characters. */
  readonly embed: (texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Float32Array>, EmbedError>
  /** The same model for a search query, served ahead of documents and from an LRU cache. */
  readonly embedQuery: (text: string) => Effect.Effect<Float32Array, EmbedError>
  readonly stats: Effect.Effect<TextEmbedderStats>
  /**
   * Whether a lower-case word is a whole word of the model's vocabulary: a word of the language
   * ("couch", "coach"), where a misspelling ("sneekers", "cordles") is not.
   */
  readonly isWord: (word: string) => boolean
}

export class TextEmbedder extends Context.Tag("TextEmbedder")<TextEmbedder, TextEmbedderService>() {}
