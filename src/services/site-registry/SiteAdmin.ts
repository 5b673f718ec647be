import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import type { Campaign, Site, SitesFile } from "../../domain/Site.js"
import { hashPassword, randomToken } from "./Password.js"

/**
 * Edits of the registry shared by the server's first-start bootstrap and the `site` CLI.
 * They return new values; persisting them is the caller's job (see SitesStore).
 */

/** A credential as handed to the operator once; only its hash is kept. */
export interface IssuedCredential {
  readonly username: string
  readonly password: string
}

export const basicAuthorization = ({ password, username }: IssuedCredential): string =>
  `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`

const newTokenSecret = (): string => randomBytes(32).toString("base64")

/** A fresh credential for `site`; the username carries the site id, so it is unique across sites. */
export const addCredential = (site: Site): Effect.Effect<{ site: Site; issued: IssuedCredential }> => {
  const taken = new Set(site.credentials.map((c) => c.username))
  let username: string
  do username = `s${site.id}-${randomBytes(4).toString("hex")}`
  while (taken.has(username))
  const issued = { username, password: randomToken(18) }
  return hashPassword(issued.password).pipe(
    Effect.map((passwordHash) => ({
      issued,
      site: {
        ...site,
        credentials: [...site.credentials, { username, passwordHash, createdAt: new Date().toISOString() }]
      }
    }))
  )
}

/** Appends a site with the next free id, one credential and a default campaign 0 of 100 results. */
export const createSite = (
  file: SitesFile,
  name: string
): Effect.Effect<{ file: SitesFile; site: Site; issued: IssuedCredential }> => {
  const empty: Site = {
    id: Math.max(0, ...file.sites.map((s) => s.id)) + 1,
    name,
    credentials: [],
    tokenSecret: newTokenSecret(),
    tokenSecretVersion: 1,
    defaultCampaign: 0,
    campaigns: [{ id: 0, name: "default", resultsCount: 100 }]
  }
  return addCredential(empty).pipe(
    Effect.map(({ issued, site }) => ({
      file: { sites: [...file.sites, site] },
      site,
      issued
    }))
  )
}

/** A new token secret: every read-only token signed with the old one stops verifying. */
export const rotateTokenSecret = (site: Site): Site => ({
  ...site,
  tokenSecret: newTokenSecret(),
  tokenSecretVersion: (site.tokenSecretVersion ?? 1) + 1
})

/** Replaces the campaign with the same id, or appends it. */
export const putCampaign = (site: Site, campaign: Campaign): Site => ({
  ...site,
  campaigns: site.campaigns.some((c) => c.id === campaign.id)
    ? site.campaigns.map((c) => (c.id === campaign.id ? campaign : c))
    : [...site.campaigns, campaign]
})

export const replaceSite = (file: SitesFile, site: Site): SitesFile => ({
  sites: file.sites.map((s) => (s.id === site.id ? site : s))
})

/** What an operator needs to call the API, ready to paste into a client. */
export const describeAccess = (site: Site, access: { issued?: IssuedCredential; token?: string }): string =>
  [
    `Site ${site.id} (${site.name})`,
    ...(access.issued
      ? [
          `  Basic credentials (site scope; the password is shown only now):`,
          `    ${access.issued.username}:${access.issued.password}`,
          `    Authorization: ${basicAuthorization(access.issued)}`
        ]
      : []),
    ...(access.token ? [`  Read-only token:`, `    Authorization: Bearer ${access.token}`] : [])
  ].join("\n")
