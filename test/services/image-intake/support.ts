import { Effect, Layer } from "effect"
import { EmbeddedImageIntake } from "../../../src/services/image-intake/EmbeddedImageIntake.js"
import { ImageIntake } from "../../../src/services/image-intake/ImageIntake.js"
import { ImageIntakeConfig, type ImageIntakeSettings } from "../../../src/services/image-intake/ImageIntakeConfig.js"

/** The service as the app builds it, from the layer, with test settings. */
export const intakeLayer = (settings: Partial<ImageIntakeSettings> = {}) =>
  EmbeddedImageIntake.layer.pipe(Layer.provide(ImageIntakeConfig.make(settings)))

export const withIntake = <A, E>(
  settings: Partial<ImageIntakeSettings>,
  use: (intake: typeof ImageIntake.Service) => Effect.Effect<A, E>
) => Effect.runPromise(Effect.flatMap(ImageIntake, use).pipe(Effect.provide(intakeLayer(settings))))

/** The failure of an effect that must fail, as a value to assert on. */
export const failureOf = <A, E>(effect: Effect.Effect<A, E>) => Effect.flip(effect)
