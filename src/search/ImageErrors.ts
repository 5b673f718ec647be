import { BadGateway, BadRequest, GatewayTimeout, PayloadTooLarge, UnprocessableImage, UnsupportedMediaType } from "../domain/Errors.js"

/**
 * Intake failures as API errors. A refused address is the caller's mistake (400, not 403: the
 * credentials are fine, the URL is not).
 */
export const imageError = (e: { readonly message: string; readonly status: number }) => {
  switch (e.status) {
    case 413:
      return new PayloadTooLarge({ message: e.message })
    case 415:
      return new UnsupportedMediaType({ message: e.message })
    case 422:
      return new UnprocessableImage({ message: e.message })
    case 502:
      return new BadGateway({ message: e.message })
    case 504:
      return new GatewayTimeout({ message: e.message })
    default:
      return new BadRequest({ message: e.message })
  }
}
