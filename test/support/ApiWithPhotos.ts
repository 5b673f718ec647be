import { loopbackImages, setEnv } from "./Env.js"
import { type InProcessApi, startInProcessApi } from "./InProcessApi.js"
import { colourShots, startPhotoHost } from "./ProductShots.js"

export interface ApiWithPhotos extends InProcessApi {
  /** http://127.0.0.1:<port> of the photo host serving /red.jpg, /blue.jpg and /green.jpg. */
  readonly imageBase: string
  readonly shots: { readonly red: Buffer; readonly blue: Buffer; readonly green: Buffer }
}

/**
 * The in-process api with a loopback photo host of colour shots, the intake opened to
 * loopback for it (and `env` set) while the api runs; `close` stops both and restores the env.
 */
export const startApiWithPhotos = async (env: Readonly<Record<string, string | undefined>> = {}): Promise<ApiWithPhotos> => {
  const { files, ...shots } = await colourShots()
  const photos = await startPhotoHost(files)
  const restoreEnv = setEnv({ ...loopbackImages, ...env })
  const stopPhotos = async () => {
    restoreEnv()
    await photos.close()
  }
  const api = await startInProcessApi().catch(async (e) => {
    await stopPhotos()
    throw e
  })
  return {
    ...api,
    imageBase: photos.base,
    shots,
    close: async () => {
      await api.close()
      await stopPhotos()
    }
  }
}
