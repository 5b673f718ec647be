import type { SettingValues } from "./Settings.js"
import { type InProcessApi, startInProcessApi } from "./InProcessApi.js"
import { colourShots, startPhotoHost } from "./ProductShots.js"

/** The image intake may fetch from loopback, where the tests' photo hosts listen. */
export const loopbackImages = { IMAGE_ALLOWED_CIDRS: "127.0.0.0/8" } as const

export interface ApiWithPhotos extends InProcessApi {
  /** http://127.0.0.1:<port> of the photo host serving /red.jpg, /blue.jpg and /green.jpg. */
  readonly imageBase: string
  readonly shots: { readonly red: Buffer; readonly blue: Buffer; readonly green: Buffer }
}

/**
 * The in-process api with a loopback photo host of colour shots and the intake opened to
 * loopback for it (more settings in `config`); `close` stops both.
 */
export const startApiWithPhotos = async (config: SettingValues = {}): Promise<ApiWithPhotos> => {
  const { files, ...shots } = await colourShots()
  const photos = await startPhotoHost(files)
  const api = await startInProcessApi({ config: { ...loopbackImages, ...config } }).catch(async (e) => {
    await photos.close()
    throw e
  })
  return {
    ...api,
    imageBase: photos.base,
    shots,
    close: async () => {
      await api.close()
      await photos.close()
    }
  }
}
