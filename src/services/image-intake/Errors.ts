import { ImageRejected, ImageUnavailable } from "./ImageIntake.js"

/** The intake's failures; each message starts with the request field, so it reads on its own. */
export const rejected = (field: string, status: ImageRejected["status"], text: string) =>
  new ImageRejected({ field, status, message: `${field}: ${text}` })

export const unavailable = (field: string, status: ImageUnavailable["status"], text: string) =>
  new ImageUnavailable({ field, status, message: `${field}: ${text}` })

export const megabytes = (bytes: number) =>
  bytes < 1_048_576 ? `${Math.ceil(bytes / 1024)} kB` : `${Math.round((bytes / 1_048_576) * 10) / 10} MB`
