import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { BadRequest, Forbidden, NotFound, ServiceUnavailable } from "../domain/Errors.js"
import {
  BatchResult,
  CampaignBody,
  CampaignList,
  CampaignPath,
  CampaignRecord,
  DeletedEntry,
  EntryId,
  EntryListParams,
  MERCHANDISING_LIMITS,
  RuleBatch,
  RuleBody,
  RuleList,
  RuleRecord,
  SavedEntry,
  SynonymBatch,
  SynonymBody,
  SynonymList,
  SynonymRecord
} from "../domain/Merchandising.js"
import { Authentication } from "./Authentication.js"
import { siteCredentialsOnly } from "./OpenApiDocument.js"

const strict = <A, I, R>(schema: Schema.Schema<A, I, R>) =>
  schema.annotations({ parseOptions: { onExcessProperty: "error" } })

const entryPath = Schema.Struct({ id: EntryId })

const IN_EFFECT =
  "In effect at once in this process and within a second in every api process of any topology; nothing is re-indexed."

const SYNONYMS =
  '`{"type": "synonym", "synonyms": ["tshirt", "t shirt", "tee"]}`: each finds what the others find. ' +
  '`{"type": "oneWaySynonym", "input": "earbuds", "synonyms": ["buds"]}`: the input also finds the synonyms, not the ' +
  'reverse. `{"type": "altCorrection", "word": "cans", "corrections": ["headphones"]}`: the word also finds its ' +
  "corrections, ranked lower. A synonym's matches rank below the query's own words where both match. Phrases have " +
  `1–${MERCHANDISING_LIMITS.phraseWords} words; a site holds at most ${MERCHANDISING_LIMITS.synonyms} synonyms. ${IN_EFFECT}`

const RULES =
  "A rule fires when it is enabled, inside one of its `validity` windows (if any) and any of its `conditions` holds " +
  "(a query `pattern` with `anchoring` is / startsWith / endsWith / contains, word by word, plural and case aside; " +
  "an empty pattern with `is` holds for a browse; a `campaign`; the request's `filters`); no conditions: every " +
  "request. Rules fire by `priority` (highest first), then id. Consequences: `promote` products to positions, " +
  "`hide` products, add `filters`, `boosts` by column values (negative buries), `query` word removals and " +
  "replacements, a `redirect`, `userData` returned as `data.userData`; the answer lists the fired rules in " +
  `\`data.appliedRules\`. A site holds at most ${MERCHANDISING_LIMITS.rules} rules. ${IN_EFFECT}`

const CAMPAIGNS =
  "A campaign: `resultsCount`, `staticFilters`, `boosts`, `pins`, `redirects`, `crossSell`, `collapseVariants`, " +
  "`popularityBoost`, typo settings (see the configuration manual). The first write of a site's campaigns copies the " +
  "sites file's campaigns into the catalog store; from then on the store's are the site's (the file keeps " +
  `credentials and \`defaultCampaign\`). At most ${MERCHANDISING_LIMITS.campaigns} campaigns a site. ${IN_EFFECT}`

/** Synonyms, query rules and campaigns over REST: site (Basic) credentials only. */
export class MerchandisingApi extends HttpApiGroup.make("merchandising")
  .add(
    HttpApiEndpoint.put("putSynonym", "/synonyms/:id")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "Create or replace a synonym")
      .annotate(OpenApi.Description, SYNONYMS)
      .setPath(entryPath)
      .setPayload(strict(SynonymBody))
      .addSuccess(SavedEntry)
  )
  .add(
    HttpApiEndpoint.get("getSynonym", "/synonyms/:id")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "Read a synonym")
      .setPath(entryPath)
      .addSuccess(SynonymRecord)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.del("deleteSynonym", "/synonyms/:id")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "Delete a synonym")
      .setPath(entryPath)
      .addSuccess(DeletedEntry)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.get("listSynonyms", "/synonyms")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "List synonyms by id, a page at a time; `query` keeps those holding a word")
      .setUrlParams(EntryListParams)
      .addSuccess(SynonymList)
  )
  .add(
    HttpApiEndpoint.post("batchSynonyms", "/synonyms/batch")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "Write many synonyms at once, merged by id or replacing them all")
      .annotate(
        OpenApi.Description,
        `At most ${MERCHANDISING_LIMITS.batch} entries; all or none are written. ${IN_EFFECT}`
      )
      .setPayload(strict(SynonymBatch))
      .addSuccess(BatchResult)
  )
  .add(
    HttpApiEndpoint.put("putRule", "/rules/:id")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "Create or replace a query rule")
      .annotate(OpenApi.Description, RULES)
      .setPath(entryPath)
      .setPayload(strict(RuleBody))
      .addSuccess(SavedEntry)
  )
  .add(
    HttpApiEndpoint.get("getRule", "/rules/:id")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "Read a query rule")
      .setPath(entryPath)
      .addSuccess(RuleRecord)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.del("deleteRule", "/rules/:id")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "Delete a query rule")
      .setPath(entryPath)
      .addSuccess(DeletedEntry)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.get("listRules", "/rules")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "List query rules by id, a page at a time; `query` keeps those mentioning a word")
      .setUrlParams(EntryListParams)
      .addSuccess(RuleList)
  )
  .add(
    HttpApiEndpoint.post("batchRules", "/rules/batch")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "Write many query rules at once, merged by id or replacing them all")
      .annotate(
        OpenApi.Description,
        `At most ${MERCHANDISING_LIMITS.batch} entries; all or none are written. ${IN_EFFECT}`
      )
      .setPayload(strict(RuleBatch))
      .addSuccess(BatchResult)
  )
  .add(
    HttpApiEndpoint.get("listCampaigns", "/campaigns")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "List the site's campaigns and its default")
      .addSuccess(CampaignList)
  )
  .add(
    HttpApiEndpoint.get("getCampaign", "/campaigns/:id")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "Read a campaign")
      .setPath(CampaignPath)
      .addSuccess(CampaignRecord)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.put("putCampaign", "/campaigns/:id")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "Create or replace a campaign")
      .annotate(OpenApi.Description, CAMPAIGNS)
      .setPath(CampaignPath)
      .setPayload(strict(CampaignBody))
      .addSuccess(SavedEntry)
  )
  .add(
    HttpApiEndpoint.del("deleteCampaign", "/campaigns/:id")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .annotate(OpenApi.Summary, "Delete a campaign (not the site's default)")
      .setPath(CampaignPath)
      .addSuccess(DeletedEntry)
      .addError(NotFound)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(ServiceUnavailable)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Synonyms, query rules and campaigns: site (Basic) credentials only.") {}
