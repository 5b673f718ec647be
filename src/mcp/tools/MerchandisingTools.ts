import { EntryListInput, RuleList, SynonymList } from "../../domain/Merchandising.js"
import { listEntries } from "../../search/MerchandisingEntries.js"
import { defineTool } from "../Tool.js"
import { asToolFailure } from "../ToolFailure.js"

const PAGING =
  "By id, `pageSize` (default 100, at most 1000) a page from `page` 0; `query` keeps the entries holding a word."

/**
 * The site's synonyms and query rules, read-only, so an agent can explain why a product ranks
 * where it does (a synonym matched, a rule promoted it). Merchants change them over REST.
 */
export const merchandisingTools = [
  defineTool({
    name: "list_synonyms",
    title: "Synonyms",
    description:
      "The site's synonyms, as GET /synonyms lists them: two-way (`synonym`), one-way (`oneWaySynonym`: the input " +
      "also finds the synonyms) and alternative corrections (ranked below the word's own matches). A synonym's " +
      `matches rank below the query's own words. ${PAGING} Needs site (Basic) credentials.`,
    scope: "site",
    effect: "reads",
    input: EntryListInput,
    output: SynonymList,
    run: (principal, input) => asToolFailure(listEntries(principal.siteId, "synonym", input))
  }),
  defineTool({
    name: "list_rules",
    title: "Query rules",
    description:
      "The site's query rules, as GET /rules lists them: conditions (query pattern and anchoring, campaign, " +
      "filters), consequences (promote, hide, filters, boosts, query edits, redirect, userData), validity, enabled, " +
      "priority. A search's answer names the rules that fired in `data.appliedRules`. " +
      `${PAGING} Needs site (Basic) credentials.`,
    scope: "site",
    effect: "reads",
    input: EntryListInput,
    output: RuleList,
    run: (principal, input) => asToolFailure(listEntries(principal.siteId, "rule", input))
  })
] as const
