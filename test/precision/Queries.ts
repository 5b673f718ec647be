/**
 * The precision suite's queries over test/precision/Catalog.ts (issue 36). Each query names the
 * products a shopper clearly expects in the first page of 10 (`must`, a modest list) and the
 * planted near misses that must not be on it (`mustNot`). A product a shopper could reasonably
 * accept (a bluetooth speaker for "speakers" beside a soundbar, a 45 W charger after the 65 W
 * ones, coffee beans for "beans") is in neither list.
 *
 * An entry of either list is a product id or an item_group_id: a group in `must` is found when
 * any of its variants is on the page (a shop may collapse variants), a group in `mustNot` is
 * unwanted in every variant. A `must` entry may also list alternatives joined by "|" (any one
 * of them will do). Queries are submitted searches, not as-you-type prefixes.
 */
import { type CatalogProduct, catalog, variantId } from "./Catalog.js"

export interface PrecisionQuery {
  readonly query: string
  /** Product ids or item_group_ids that must be in the top 10. */
  readonly must: ReadonlyArray<string>
  /** Product ids or item_group_ids that must not appear in the top 10. */
  readonly mustNot: ReadonlyArray<string>
  readonly note: string
}

const ids = (keep: (p: CatalogProduct) => boolean) => catalog.filter(keep).map((p) => p.id)
const under = (path: string) => ids((p) => p.product_type === path || p.product_type.startsWith(`${path} >`))

// Near-miss sets, by what they are.
const SPEAKERS = under("Electronics > Audio > Speakers")
const SNEAKERS = ["nike-af1", "converse-chuck-hi", "snk-newbalance-574-grey-10", "snk-veja-campo-white-9"]
const DRILLS = under("Tools > Power Tools > Drills")
const GRILLS = [
  ...under("Outdoor > Grills & Smokers"),
  "ck-lodge-grill-pan",
  "ga-grillaholics-brush",
  "ga-weber-spirit-cover"
]
const CANNED_BEANS = under("Grocery > Pantry > Canned Beans")
const JEANS = under("Apparel > Bottoms > Jeans")
  .filter((id) => !id.startsWith("levis-501-"))
  .concat("levis-501")
const CANDLES = [
  "cd-yankee-balsam-cedar",
  "cd-bathbody-mahogany-3wick",
  "cd-woodwick-vanilla-bean",
  "cd-chesapeake-peace-tranquility",
  "cd-hearth-hand-ceramic"
]
const HANDLES = [
  "dh-schlage-latitude-lever",
  "dh-kwikset-halifax-handleset",
  "dh-national-hardware-barn-handle",
  "dh-amerock-bar-pull-10pk",
  "ut-lodge-hot-handle-holder"
]
const PANTS = ["dickies-874", "pants-carhartt-rugged-flex-34x32", "pants-columbia-silver-ridge-m"]
const PANS = [
  "ck-tfal-ultimate-frypan-12",
  "ck-oxo-nonstick-frypan-10",
  "ck-madein-stainless-frypan-10",
  "ck-allclad-d3-saute-4qt",
  "ck-nordicware-half-sheet",
  "ck-wilton-muffin-pan-12",
  "ck-lodge-grill-pan"
]
const PLANTS = ["gd-costa-snake-plant", "gd-costa-monstera"]
/** Everything in the Pantry category, the Pantry storage sets, and the other "pan…" words. */
const PAN_PREFIX_TRAPS = [
  ...under("Grocery > Pantry"),
  "fs-oxo-pop-pantry-10pc",
  "fs-rubbermaid-brilliance-pantry",
  "be-pantene-daily-moisture-shampoo",
  "eb-panasonic-rzb110",
  ...PANTS,
  "by-huggies-pullups-training-pants"
]
const LAMPS = [
  "lt-brightech-sky-floor-lamp",
  "lt-taotronics-led-desk-lamp",
  "lt-benq-ereading-desk-lamp",
  "lt-potterybarn-chelsea-table-lamp"
]
const LAMP_NEAR_MISSES = [
  "cp-alps-king-kong-chair",
  "cp-kijaro-dual-lock-chair",
  "cp-coleman-2-burner-stove",
  "ht-irwin-quick-grip-clamp-12",
  "pet-petsafe-cozyup-ramp",
  "hw-ezaccess-threshold-ramp",
  "cl-damprid-hanging-3pk"
]
const MUGS = under("Kitchen > Drinkware > Mugs")
const RUGS = [
  "rg-safavieh-hudson-shag-5x8",
  "rg-nuloom-rigo-jute-5x8",
  "rg-ruggable-washable-5x7",
  "rg-lahome-runner-2x6",
  "rg-gorillagrip-bath-rug"
]
const BOOTS = [
  "timberland-6in",
  "boot-drmartens-1460-black-8",
  "boot-merrell-moab3-mid-10",
  "boot-hunter-original-tall-7",
  "boot-sorel-caribou-9",
  "boot-columbia-newton-ridge-11"
]
const BOATS = [
  "ws-intex-excursion4-boat",
  "ws-intex-seahawk2-boat",
  "ws-bote-breeze-paddle-board",
  "ty-greentoys-tugboat"
]
const SOCKS = [
  "darntough-hiker-crew",
  "sock-bombas-ankle-4pk",
  "sock-smartwool-everyday-rib",
  "sock-hanes-cushion-crew-12pk"
]
const LOCKS = under("Hardware > Door Hardware > Locks")
const SHIRTS = under("Apparel > Tops > Shirts")
const SKIRTS = ["jcrew-pleated-midi-skirt", "sk-freepeople-denim-mini-s", "sk-lululemon-pace-rival-4"]
const SHORTS = under("Apparel > Bottoms > Shorts")
const TEES = [
  "hanes-comfortsoft-tee",
  "gildan-heavy-cotton-tee",
  "champion-jersey-tee",
  "tee-uniqlo-u-crew-white-m",
  "tee-underarmour-tech-red-m"
]
const HEATHER_COLOURS = ids((p) => (p.color ?? "").includes("Heather") && !p.product_type.startsWith("Home"))
const SOFAS = ["fn-ikea-kivik-3seat", "fn-article-sven-88", "fn-zinus-josh-loveseat", "fn-honbay-sectional"]
const BED_FRAMES = [
  "fn-zinus-shawn-bed-frame-queen",
  "fn-novilla-upholstered-bed-queen",
  "fn-allewie-bed-frame-headboard",
  "fn-dhp-bunk-bed-twin"
]
const BED_PREFIX_TRAPS = [
  "bd-bedsure-fleece-throw",
  "bd-utopia-duvet-cover-queen",
  "fn-sauder-harbor-view-bedside-table"
]
const CABLES = under("Electronics > Computer Accessories > Cables")
const TABLES = ["fn-zinus-becky-dining-table", "fn-walkeredison-coffee-table", "fn-nathanjames-side-table"]
const TABLETS = [...under("Electronics > Tablets"), "cl-finish-quantum-tablets-82"]
const YOGA_MATS = under("Sports > Fitness > Yoga")
const HATS = [
  "hat-columbia-bora-bora-booney",
  "hat-kangol-bermuda-bucket",
  "hat-patagonia-p6-trucker",
  "hat-carhartt-watch-beanie"
]
const BATS = ["sp-louisville-omaha-bbcor-bat", "sp-easton-alpha-alx-bat"]
const CAPSULES = ["gr-nespresso-vertuo-capsules", "ka-nespresso-vertuo-next"]
const CUPS = ["cup-dixie-paper-cups", "cup-pyrex-measuring-2cup", "by-munchkin-miracle-360-sippy"]
const DISKS = ["st-wd-elements-2tb", "st-sandisk-cruzer-64gb", "st-sandisk-ultra-128gb"]
const DESKS = under("Furniture > Office > Desks")
const VESTS = ["patagonia-better-sweater-vest", "vs-northface-nuptse-vest-m"]
const NESTS_AND_BESTS = [
  "spk-google-nest-mini",
  "sh-google-nest-thermostat",
  "sh-google-nest-cam-indoor",
  "cd-nest-bamboo-reed-diffuser",
  "cp-eno-doublenest-hammock",
  "gr-bushs-best-black-beans",
  "gr-bushs-baked-beans-28oz",
  "pet-bestfriends-donut-cat-bed"
]
const CHAIRS = [
  "of-hermanmiller-aeron",
  "of-hbada-ergonomic-desk-chair",
  "fn-polybark-napa-lounge-chair",
  "cp-alps-king-kong-chair",
  "cp-kijaro-dual-lock-chair",
  "cp-coleman-quad-chair"
]
const HAIR = [
  "be-dyson-supersonic-hair-dryer",
  "be-revlon-one-step-volumizer",
  "be-chi-ceramic-flat-iron",
  "be-olaplex-no3"
]
const DRESSES = under("Apparel > Dresses")
const PRESSES_AND_DRESSER = ["ka-bodum-chambord-french-press", "ut-oxo-garlic-press", "fn-ikea-malm-6-drawer-dresser"]
const INSULATED_DRINKWARE = [
  "cup-stanley-quencher-40oz",
  "sp-hydroflask-32oz-wide-mouth",
  "mug-yeti-rambler-14oz",
  "jk-northface-thermoball-m"
]
const OFFICE_WIRELESS = [
  "ms-logitech-m185",
  "ms-logitech-mx-master3s",
  "kb-keychron-k2",
  "chg-belkin-magsafe-3in1",
  "of-brother-hl-l2350dw"
]
const WIRELESS_HEADPHONES = ["hp-bose-qc45", "hp-sony-wh1000xm5", "hp-beats-solo4", "hp-jbl-tune510bt"]

export const queries: ReadonlyArray<PrecisionQuery> = [
  // ---- A real word one edit from another department's word
  {
    query: "sneakers",
    must: SNEAKERS,
    mustNot: SPEAKERS,
    note: "the shop's complaint: 4 sneakers then 6 speakers; running and skate shoes are fine"
  },
  {
    query: "speakers",
    must: ["spk-jbl-flip6", "spk-jbl-charge5", "spk-bose-soundlink-flex", "spk-sonos-era100", "spk-edifier-r1280t"],
    mustNot: SNEAKERS,
    note: "speakers then sneakers was the complaint; soundbars are fine"
  },
  {
    query: "bluetooth speaker",
    must: ["spk-jbl-flip6", "spk-jbl-charge5", "spk-bose-soundlink-flex"],
    mustNot: SNEAKERS,
    note: "Bluetooth headphones and keyboards are a partial match a shopper may scroll past, so neither"
  },
  {
    query: "drill",
    must: [
      "dr-dewalt-dcd771c2",
      "dr-milwaukee-m18-fuel-hammer",
      "dr-makita-xfd131-18v",
      "dr-ryobi-one-18v",
      "dr-bosch-corded-hammer"
    ],
    mustNot: GRILLS,
    note: "on larger catalogs the drill page ended with grills; drill bits and the impact driver are fine"
  },
  {
    query: "grill",
    must: [
      "gl-weber-spirit-e310",
      "gl-weber-kettle-22",
      "gl-traeger-pro575",
      "gl-pitboss-700fb",
      "gl-nexgrill-4-burner-bbq"
    ],
    mustNot: [...DRILLS, "ht-dewalt-drill-bit-set"],
    note: "the grill pan, brush, cover and griddle are fine"
  },
  {
    query: "grills",
    must: ["gl-weber-spirit-e310", "gl-weber-kettle-22", "gl-traeger-pro575", "gl-coleman-roadtrip-285"],
    mustNot: [...DRILLS, "ht-dewalt-drill-bit-set"],
    note: "plural of the same"
  },
  {
    query: "beans",
    must: CANNED_BEANS,
    mustNot: [...JEANS, "hat-carhartt-watch-beanie", "gr-bens-original-rice", "cd-woodwick-vanilla-bean"],
    note: "larger catalogs ended the page with jeans; coffee beans are fine, a beanie, Ben's rice and a vanilla bean candle are not"
  },
  {
    query: "jeans",
    must: JEANS,
    mustNot: CANNED_BEANS,
    note: "denim skirts and shirt dresses are fine"
  },
  {
    query: "black beans",
    must: ["gr-bushs-best-black-beans"],
    mustNot: [variantId("levis-501", "Black", "32x32"), "jn-levis-721-black-28"],
    note: "black jeans share a word and are one edit away in the other"
  },
  {
    query: "black jeans",
    must: [variantId("levis-501", "Black", "32x32"), "jn-levis-721-black-28"],
    mustNot: CANNED_BEANS,
    note: "other jeans are fine below the black ones"
  },
  {
    query: "coffee beans",
    must: ["gr-lavazza-super-crema", "gr-starbucks-pike-place"],
    mustNot: JEANS,
    note: "coffee capsules and machines are fine"
  },
  {
    query: "candle",
    must: CANDLES,
    mustNot: HANDLES,
    note: "larger catalogs ended the page with door handles; LED candles and the candle warmer are fine"
  },
  {
    query: "candles",
    must: CANDLES,
    mustNot: HANDLES,
    note: "plural of the same"
  },
  {
    query: "scented candle",
    must: ["cd-chesapeake-peace-tranquility", "cd-yankee-balsam-cedar", "cd-bathbody-mahogany-3wick"],
    mustNot: HANDLES,
    note: "a reed diffuser is fine"
  },
  {
    query: "door handle",
    must: ["dh-schlage-latitude-lever", "dh-national-hardware-barn-handle", "dh-kwikset-halifax-handleset"],
    mustNot: CANDLES,
    note: "knobs, cabinet pulls and locks are fine"
  },
  {
    query: "pants",
    must: PANTS,
    mustNot: [...PANS, ...PLANTS],
    note: "larger catalogs ended the page with saute pans; trousers and training pants are fine"
  },
  {
    query: "mens work pants",
    must: ["dickies-874", "pants-carhartt-rugged-flex-34x32"],
    mustNot: PANS,
    note: "other pants and jeans are fine"
  },
  {
    query: "pans",
    must: [
      "ck-tfal-ultimate-frypan-12",
      "ck-oxo-nonstick-frypan-10",
      "ck-madein-stainless-frypan-10",
      "ck-allclad-d3-saute-4qt",
      "ck-nordicware-half-sheet"
    ],
    mustNot: [...PANTS, "by-huggies-pullups-training-pants"],
    note: "saucepans, skillets and the cookware set are fine"
  },
  {
    query: "plants",
    must: PLANTS,
    mustNot: PANTS,
    note: "pots and potting mix are fine"
  },
  {
    query: "lamp",
    must: LAMPS,
    mustNot: LAMP_NEAR_MISSES,
    note: "camp, clamp, ramp and DampRid are one edit away; the candle warmer lamp, headlamp and lantern are fine"
  },
  {
    query: "desk lamp",
    must: ["lt-taotronics-led-desk-lamp", "lt-benq-ereading-desk-lamp"],
    mustNot: [...LAMP_NEAR_MISSES, ...DISKS],
    note: "desks and other lamps are fine"
  },
  {
    query: "camp chair",
    must: ["cp-alps-king-kong-chair", "cp-kijaro-dual-lock-chair", "cp-coleman-quad-chair"],
    mustNot: [...LAMPS, ...HAIR],
    note: "other chairs and camping gear are fine"
  },
  {
    query: "camp stove",
    must: ["cp-coleman-2-burner-stove", "cp-jetboil-flash"],
    mustNot: LAMPS,
    note: "other camping gear is fine"
  },
  {
    query: "mug",
    must: MUGS,
    mustNot: [...RUGS, "cp-murphys-bug-spray"],
    note: "cups and tumblers are fine"
  },
  {
    query: "coffee mug",
    must: ["mug-lecreuset-stoneware-14oz", "mug-ember-mug2-10oz", "mug-yeti-rambler-14oz"],
    mustNot: RUGS,
    note: "coffee makers and coffee are a partial match, so neither"
  },
  {
    query: "rug",
    must: RUGS.slice(0, 4),
    mustNot: [...MUGS, "sp-gilbert-rugby-training-ball", "cp-murphys-bug-spray", "cl-homexcel-microfiber-rags"],
    note: "mug, bug and rag are one edit away, rugby a prefix trap; the door mat is fine"
  },
  {
    query: "area rug",
    must: ["rg-safavieh-hudson-shag-5x8", "rg-nuloom-rigo-jute-5x8"],
    mustNot: [...MUGS, "sp-gilbert-rugby-training-ball"],
    note: "other rugs are fine"
  },
  {
    query: "boots",
    must: BOOTS.slice(0, 5),
    mustNot: [...BOATS, "by-graco-turbobooster"],
    note: "boats, BOTE and a booster seat are near misses; sneakers are fine"
  },
  {
    query: "waterproof hiking boots",
    must: ["boot-merrell-moab3-mid-10", "boot-columbia-newton-ridge-11"],
    mustNot: BOATS,
    note: "other waterproof boots and footwear are fine"
  },
  {
    query: "rain boots",
    must: ["boot-hunter-original-tall-7"],
    mustNot: BOATS,
    note: "rain jackets and other boots are fine"
  },
  {
    query: "inflatable boat",
    must: ["ws-intex-excursion4-boat", "ws-intex-seahawk2-boat"],
    mustNot: BOOTS,
    note: "the kayak and paddle board are fine"
  },
  {
    query: "socks",
    must: SOCKS,
    mustNot: [...LOCKS, "ht-craftsman-socket-set-57pc", "by-owlet-dream-sock"],
    note: "a sock monitor and a socket set are traps; baby socks are fine"
  },
  {
    query: "wool socks",
    must: ["darntough-hiker-crew", "sock-smartwool-everyday-rib"],
    mustNot: [...LOCKS, "ht-craftsman-socket-set-57pc", "by-owlet-dream-sock"],
    note: "cotton socks are fine"
  },
  {
    query: "smart lock",
    must: ["lk-kwikset-smartcode-916", "lk-yale-assure-2-keypad", "lk-schlage-encode-wifi"],
    mustNot: [...SOCKS, "by-owlet-dream-sock"],
    note: "the Owlet is a smart sock, one edit away; padlocks are fine"
  },
  {
    query: "locks",
    must: ["lk-kwikset-smartcode-916", "lk-yale-assure-2-keypad", "lk-masterlock-padlock-4pk"],
    mustNot: [...SOCKS, "hm-bernhard-wall-clock-13", "hm-hatch-restore2"],
    note: "door knobs with locks and handlesets are fine"
  },
  {
    query: "wall clock",
    must: ["hm-bernhard-wall-clock-13"],
    mustNot: LOCKS,
    note: "the alarm clock is fine"
  },
  {
    query: "shirt",
    must: SHIRTS.slice(0, 4),
    mustNot: [...SKIRTS, ...SHORTS],
    note: "T-shirts, polos and the shirt dress are fine"
  },
  {
    query: "skirt",
    must: SKIRTS,
    mustNot: [...SHIRTS, ...TEES],
    note: "dresses and shorts are fine"
  },
  {
    query: "vest",
    must: VESTS,
    mustNot: NESTS_AND_BESTS,
    note: "Nest and Best are one edit away; the life vest is fine"
  },
  {
    query: "nest thermostat",
    must: ["sh-google-nest-thermostat"],
    mustNot: VESTS,
    note: "other Nest devices are fine"
  },
  {
    query: "chair",
    must: ["of-hermanmiller-aeron", "fn-polybark-napa-lounge-chair", "cp-alps-king-kong-chair"],
    mustNot: HAIR,
    note: "every chair is fine"
  },
  {
    query: "hair dryer",
    must: ["be-dyson-supersonic-hair-dryer", "be-revlon-one-step-volumizer"],
    mustNot: CHAIRS,
    note: "other hair tools are fine"
  },
  {
    query: "coat",
    must: ["jk-landsend-down-coat-m", "jk-londonfog-trench-coat-l"],
    mustNot: ["cp-coleman-trailhead-cot", "ws-intex-excursion4-boat", "ws-intex-seahawk2-boat"],
    note: "jackets and vests are fine"
  },
  {
    query: "hose",
    must: ["gd-flexzilla-garden-hose-50", "gd-suncast-hose-reel-cart", "gd-melnor-hose-nozzle"],
    mustNot: ["sd-dearfoams-house-slippers-m", "gd-knockout-double-red-rose"],
    note: "house and rose are one edit away"
  },
  {
    query: "garden hose",
    must: ["gd-flexzilla-garden-hose-50"],
    mustNot: ["sd-dearfoams-house-slippers-m", "gd-knockout-double-red-rose"],
    note: "other garden products are fine"
  },
  {
    query: "lotion",
    must: ["be-cerave-moisturizing-lotion", "be-aveeno-body-lotion"],
    mustNot: ["lt-lepower-motion-sensor-light", "spk-soundcore-motion300"],
    note: "motion is one edit away; the face moisturizer is fine"
  },
  {
    query: "dress",
    must: DRESSES,
    mustNot: PRESSES_AND_DRESSER,
    note: "press is one edit away, dresser a prefix trap; skirts are fine"
  },
  {
    query: "french press",
    must: ["ka-bodum-chambord-french-press"],
    mustNot: DRESSES,
    note: "coffee makers are fine"
  },
  {
    query: "pen",
    must: ["of-pilot-g2-pens-12pk", "of-bic-cristal-pens-10"],
    mustNot: [
      "sp-penn-championship-tennis-balls",
      "lt-globe-pendant-3-light",
      "ck-tfal-ultimate-frypan-12",
      "ck-oxo-nonstick-frypan-10",
      "ck-nordicware-half-sheet"
    ],
    note: "Penn, pendant and pan are near misses; markers are fine"
  },
  {
    query: "fan",
    must: ["hc-lasko-box-fan-20", "hc-dyson-tp07-purifier-fan"],
    mustNot: ["ck-tfal-ultimate-frypan-12", "ck-oxo-nonstick-frypan-10", "ck-nordicware-half-sheet"],
    note: "pan is one edit away; heaters are fine"
  },
  {
    query: "ball",
    must: [
      "sp-wilson-nba-basketball",
      "sp-adidas-starlancer-soccer-ball",
      "sp-penn-championship-tennis-balls",
      "sp-gilbert-rugby-training-ball"
    ],
    mustNot: ["sp-bell-draft-mips-helmet", "sp-amazon-kettlebell-20lb"],
    note: "Bell and kettlebell are one edit away; the bowling ball is fine"
  },
  {
    query: "bowl",
    must: ["bowl-corelle-soup-cereal-6pc", "bowl-pyrex-mixing-8pc", "bowl-oxo-stainless-mixing-3pc"],
    mustNot: ["sp-brunswick-tzone-bowling-ball"],
    note: "bowling is a prefix trap; dog bowls are fine"
  },
  {
    query: "dog bowl",
    must: ["pet-yeti-boomer8-dog-bowl", "pet-outwardhound-slow-feeder-bowl"],
    mustNot: ["sp-brunswick-tzone-bowling-ball"],
    note: "other bowls and dog products are fine"
  },
  {
    query: "cable",
    must: CABLES,
    mustNot: [...TABLES, ...TABLETS],
    note: "table and tablet are near misses; the locking cable and cable-knit sweater are a shared word, so neither"
  },
  {
    query: "usb c cable",
    must: ["cbl-anker-usbc-100w", "cbl-apple-usbc-lightning"],
    mustNot: [...TABLES, "sw-llbean-fisherman-cable-knit", "lk-masterlock-python-cable"],
    note: "USB-C chargers are fine"
  },
  {
    query: "table",
    must: TABLES,
    mustNot: [...CABLES, ...TABLETS],
    note: "bedside tables and the table lamp are fine"
  },
  {
    query: "coffee table",
    must: ["fn-walkeredison-coffee-table"],
    mustNot: [...CABLES, ...TABLETS],
    note: "other tables are fine; coffee is a partial match, so neither"
  },
  {
    query: "tablet",
    must: under("Electronics > Tablets"),
    mustNot: TABLES,
    note: "dishwasher tablets share the word, so neither"
  },
  {
    query: "yoga mat",
    must: YOGA_MATS,
    mustNot: [...HATS, "newera-9forty", ...BATS, "pet-amazon-cat-tree"],
    note: "hat, bat and cat are one edit from mat; other mats are fine"
  },
  {
    query: "hat",
    must: HATS,
    mustNot: [
      "ht-fiskars-x7-hatchet",
      "hm-hatch-restore2",
      ...YOGA_MATS,
      "rg-gorillagrip-door-mat",
      "bth-gorillagrip-memory-foam-bath-mat",
      ...BATS,
      "pet-amazon-cat-tree",
      "pet-tidycats-clumping-litter"
    ],
    note: "hatchet and Hatch are prefix traps, mat, bat and cat one edit away; caps are fine"
  },
  {
    query: "bat",
    must: BATS,
    mustNot: [
      "bat-dewalt-20v-5ah",
      "bth-amazon-bath-towels-2pk",
      "bth-gorillagrip-memory-foam-bath-mat",
      "cd-bathbody-mahogany-3wick",
      ...HATS,
      "bg-amazon-laptop-bag-15-6",
      "bg-coach-tabby-shoulder-bag-26",
      ...YOGA_MATS
    ],
    note: "battery and bath are prefix traps, hat, bag and mat one edit away; the baseball glove is fine"
  },
  {
    query: "baseball bat",
    must: BATS,
    mustNot: ["bat-dewalt-20v-5ah", "newera-9forty"],
    note: "a baseball cap shares a word but is not a bat; the glove is fine"
  },
  {
    query: "baseball cap",
    must: ["newera-9forty"],
    mustNot: [...BATS, ...CAPSULES],
    note: "other hats are fine"
  },
  {
    query: "cap",
    must: ["newera-9forty"],
    mustNot: [...CAPSULES, ...CUPS],
    note: "capsules are a prefix trap, cups one edit away; other hats are fine"
  },
  {
    query: "cup",
    must: CUPS,
    mustNot: ["newera-9forty", "gr-bettycrocker-cupcake-mix"],
    note: "caps are one edit away, cupcakes a prefix trap; mugs, tumblers and K-Cups are fine"
  },
  {
    query: "bag",
    must: [
      "bg-amazon-laptop-bag-15-6",
      "bg-longchamp-le-pliage-tote",
      "bg-coach-tabby-shoulder-bag-26",
      "bg-patagonia-black-hole-duffel-55l",
      "bg-baggu-standard-reusable"
    ],
    mustNot: ["gr-thomas-everything-bagels", "ka-cuisinart-2-slice-toaster", "cl-homexcel-microfiber-rags", ...BATS],
    note: "bagels are a prefix trap, rag and bat one edit away; backpacks, sleeping bags and tea bags are fine"
  },
  {
    query: "laptop bag",
    must: ["bg-amazon-laptop-bag-15-6", "bg-herschel-little-america-laptop"],
    mustNot: ["gr-thomas-everything-bagels"],
    note: "other bags are fine"
  },
  {
    query: "desk",
    must: DESKS,
    mustNot: DISKS,
    note: "disk and SanDisk are near misses; desk lamps, chairs and organizers are fine"
  },
  {
    query: "standing desk",
    must: ["fn-flexispot-e7-standing-desk", "fn-vari-electric-standing-desk"],
    mustNot: DISKS,
    note: "other desks are fine"
  },
  {
    query: "tea",
    must: ["gr-twinings-english-breakfast"],
    mustNot: ["gildan-heavy-cotton-tee", "tee-madewell-whisper-crew-s", "sp-pride-golf-tees-100"],
    note: "tee is one edit away"
  },
  {
    query: "space heater",
    must: ["hc-lasko-ceramic-space-heater", "hc-dreo-atom-one-heater"],
    mustNot: HEATHER_COLOURS,
    note: "Heather Grey apparel is one edit from heater"
  },
  {
    query: "jigsaw puzzle",
    must: ["ty-ravensburger-disney-castle-1000", "ty-buffalo-cinque-terre-500"],
    mustNot: ["saw-bosch-js470e-jigsaw"],
    note: "the jigsaw power tool shares the word; other toys are fine"
  },

  // ---- Typos of words with no products of their own
  {
    query: "sneekers",
    must: ["nike-af1", "converse-chuck-hi"],
    mustNot: SPEAKERS,
    note: "one edit from sneakers, two from speakers"
  },
  {
    query: "cordles drill",
    must: ["dr-dewalt-dcd771c2", "dr-makita-xfd131-18v", "dr-ryobi-one-18v", "dr-blackdecker-20v"],
    mustNot: [...GRILLS, "cl-dyson-v8-cordless-vacuum"],
    note: "a cordless vacuum is not a drill; other cordless tools are fine"
  },
  {
    query: "hedphones",
    must: ["hp-bose-qc45", "hp-sony-wh1000xm5", "hp-sennheiser-hd560s", "hp-audiotechnica-m50x"],
    mustNot: [],
    note: "a typo must still find headphones; earbuds are fine"
  },
  {
    query: "candel",
    must: ["cd-yankee-balsam-cedar", "cd-bathbody-mahogany-3wick", "cd-woodwick-vanilla-bean"],
    mustNot: HANDLES,
    note: "transposed letters of candle"
  },
  {
    query: "skilet",
    must: ["ck-lodge-skillet-12in", "ck-lodge-skillet-10in"],
    mustNot: SKIRTS,
    note: "a missing letter of skillet"
  },

  // ---- Prefix traps for submitted queries
  {
    query: "pan",
    must: [
      "ck-allclad-d3-saucepan-3qt",
      "ck-tfal-ultimate-frypan-12",
      "ck-oxo-nonstick-frypan-10",
      "ck-madein-stainless-frypan-10"
    ],
    mustNot: PAN_PREFIX_TRAPS,
    note: "the complaint: three Pantry groceries and a skillet, no All-Clad Saucepan; skillets, the cookware set and sheet pans are fine"
  },
  {
    query: "saucepan",
    must: ["ck-allclad-d3-saucepan-3qt", "ck-calphalon-saucepan-2-5qt"],
    mustNot: PAN_PREFIX_TRAPS,
    note: "other pans are fine"
  },
  {
    query: "frying pan",
    must: ["ck-tfal-ultimate-frypan-12", "ck-oxo-nonstick-frypan-10", "ck-madein-stainless-frypan-10"],
    mustNot: PAN_PREFIX_TRAPS,
    note: "skillets and the saute pan are fine"
  },
  {
    query: "all-clad saucepan",
    must: ["ck-allclad-d3-saucepan-3qt"],
    mustNot: PAN_PREFIX_TRAPS,
    note: "the All-Clad saute pan and other saucepans are fine"
  },
  {
    query: "stainless steel saucepan",
    must: ["ck-allclad-d3-saucepan-3qt"],
    mustNot: PAN_PREFIX_TRAPS,
    note: "other stainless cookware is fine"
  },
  {
    query: "bed",
    must: BED_FRAMES,
    mustNot: BED_PREFIX_TRAPS,
    note: "Bedsure, Utopia Bedding and the bedside table are prefix traps; pet beds, the futon sofa bed and the mattress are fine"
  },
  {
    query: "queen bed frame",
    must: ["fn-zinus-shawn-bed-frame-queen", "fn-allewie-bed-frame-headboard"],
    mustNot: BED_PREFIX_TRAPS,
    note: "other beds and queen bedding are fine"
  },
  {
    query: "pot",
    must: ["gd-bloem-terra-pot-12", "gd-mkono-ceramic-plant-pots-3"],
    mustNot: [
      "by-summer-potty-training-seat",
      "by-huggies-pullups-training-pants",
      "gr-lays-classic-chips",
      "lt-potterybarn-chelsea-table-lamp",
      "gl-pitboss-700fb",
      "pet-petsafe-cozyup-ramp",
      "pet-bestfriends-donut-cat-bed"
    ],
    note: "potty, potato and Pottery Barn are prefix traps, pit and pet one edit away; cooking pots, Instant Pot and potting mix are fine"
  },
  {
    query: "flower pot",
    must: ["gd-bloem-terra-pot-12", "gd-mkono-ceramic-plant-pots-3"],
    mustNot: ["by-summer-potty-training-seat", "lt-potterybarn-chelsea-table-lamp", "pet-petsafe-cozyup-ramp"],
    note: "potting mix and potted plants are fine"
  },
  {
    query: "pet bed",
    must: ["pet-furhaven-orthopedic-dog-bed", "pet-bedsure-orthopedic-dog-bed", "pet-bestfriends-donut-cat-bed"],
    mustNot: ["gd-bloem-terra-pot-12", "gd-mkono-ceramic-plant-pots-3"],
    note: "pot is one edit from pet; other pet products and beds are fine"
  },

  // ---- Part words, compounds and meaning
  {
    query: "earbuds",
    must: ["eb-airpods-pro2", "eb-galaxy-buds2-pro", "eb-sony-wf1000xm5", "eb-jabra-elite4"],
    mustNot: [],
    note: "the complaint: AirPods Pro and Galaxy Buds2 Pro, whose text never says earbuds, were missed"
  },
  {
    query: "wireless earbuds",
    must: ["eb-galaxy-buds2-pro", "eb-jabra-elite4", "eb-sony-wf1000xm5", "eb-airpods-pro2"],
    mustNot: OFFICE_WIRELESS.slice(0, 3),
    note: "headphones are fine; a wireless mouse or keyboard is not"
  },
  {
    query: "buds",
    must: ["eb-galaxy-buds2-pro", "eb-beats-studio-buds-plus"],
    mustNot: BED_FRAMES,
    note: "Buds2 is a part word; beds are one edit away; the bud vase shares the word, so neither"
  },
  {
    query: "galaxy buds",
    must: ["eb-galaxy-buds2-pro"],
    mustNot: BED_FRAMES,
    note: "the Galaxy Tab and other earbuds are fine"
  },
  {
    query: "wireless headphones",
    must: WIRELESS_HEADPHONES,
    mustNot: OFFICE_WIRELESS,
    note: "the complaint: the Bose QuietComfort 45 Bluetooth Headphones were missed; earbuds and wired headphones are fine"
  },
  {
    query: "bluetooth headphones",
    must: ["hp-bose-qc45", "hp-soundcore-q30", "hp-sony-wh1000xm5"],
    mustNot: ["kb-logitech-k380"],
    note: "wireless headphones are Bluetooth; speakers are a partial match, so neither"
  },
  {
    query: "noise cancelling headphones",
    must: ["hp-bose-qc45", "hp-sony-wh1000xm5", "hp-soundcore-q30"],
    mustNot: [],
    note: "canceling and cancelling; noise-cancelling earbuds are fine"
  },
  {
    query: "tshirt",
    must: TEES,
    mustNot: SKIRTS,
    note: "T-Shirt, Tee, T Shirt and Tshirt are one kind; the complaint also had one shirt in three colours as the top 3"
  },
  {
    query: "t shirt",
    must: TEES,
    mustNot: SKIRTS,
    note: "two words for the same"
  },
  {
    query: "t-shirt",
    must: TEES,
    mustNot: SKIRTS,
    note: "hyphenated"
  },
  {
    query: "tee",
    must: ["gildan-heavy-cotton-tee", "tee-madewell-whisper-crew-s", "hanes-comfortsoft-tee", "champion-jersey-tee"],
    mustNot: ["gr-twinings-english-breakfast", "bd-zinus-green-tea-mattress-queen"],
    note: "tea is one edit away; golf tees share the word, so neither"
  },
  {
    query: "couch",
    must: SOFAS,
    mustNot: ["bg-coach-tabby-shoulder-bag-26"],
    note: "no product says couch; Coach is one edit away; the futon and lounge chair are fine"
  },
  {
    query: "sofa",
    must: SOFAS,
    mustNot: ["ka-sodastream-terra"],
    note: "soda is one edit away; the throw blanket for the sofa is fine"
  },
  {
    query: "bbq",
    must: ["gl-weber-spirit-e310", "gl-weber-kettle-22", "gl-nexgrill-4-burner-bbq", "gl-traeger-pro575"],
    mustNot: DRILLS,
    note: "only one grill says BBQ; barbecue sauce and grill accessories are fine"
  },
  {
    query: "gas grill",
    must: ["gl-weber-spirit-e310", "gl-nexgrill-4-burner-bbq"],
    mustNot: DRILLS,
    note: "other grills and the griddle are fine"
  },
  {
    query: "charcoal grill",
    must: ["gl-weber-kettle-22"],
    mustNot: DRILLS,
    note: "charcoal and other grills are fine"
  },
  {
    query: "trainers",
    must: ["adidas-ultraboost", "nike-af1"],
    mustNot: [
      "by-huggies-pullups-training-pants",
      "pet-amazon-puppy-pads",
      "pet-zukes-training-treats",
      "sp-gilbert-rugby-training-ball"
    ],
    note: "British for sneakers; training pants, pads, treats and balls share a stem"
  },
  {
    query: "running shoes",
    must: ["adidas-ultraboost", "run-brooks-ghost15-10", "run-hoka-clifton9-8"],
    mustNot: [],
    note: "sneakers, running shorts and the running watch are fine"
  },
  {
    query: "nightstand",
    must: ["fn-nathanjames-nightstand", "fn-sauder-harbor-view-bedside-table"],
    mustNot: [],
    note: "a bedside table is a nightstand"
  },
  {
    query: "dog bed",
    must: ["pet-furhaven-orthopedic-dog-bed", "pet-bedsure-orthopedic-dog-bed"],
    mustNot: ["bd-bedsure-fleece-throw"],
    note: "the cat bed is fine; a Bedsure blanket is not a dog bed"
  },
  {
    query: "cast iron skillet",
    must: ["ck-lodge-skillet-12in", "ck-lodge-skillet-10in"],
    mustNot: SKIRTS,
    note: "the grill pan and Dutch oven are fine"
  },

  // ---- Model numbers and sizes
  {
    query: "wh-1000xm5",
    must: ["hp-sony-wh1000xm5"],
    mustNot: ["ty-ravensburger-disney-castle-1000"],
    note: "the XM4 and the WF-1000XM5 earbuds are fine below it; a 1000 piece puzzle is not"
  },
  {
    query: "wh1000xm5",
    must: ["hp-sony-wh1000xm5"],
    mustNot: ["ty-ravensburger-disney-castle-1000"],
    note: "the same model without its dash"
  },
  {
    query: "65w charger",
    must: ["chg-anker-735-65w", "chg-ugreen-nexode-65w"],
    mustNot: ["lt-philips-br30-65w-equivalent"],
    note: "a 65W equivalent bulb is not a charger; the 45W and other chargers are fine"
  },
  {
    query: "r-5 insulation",
    must: ["in-owens-foamular-r5"],
    mustNot: INSULATED_DRINKWARE,
    note: "R-13 and R-15 insulation are fine; insulated tumblers and jackets are not insulation"
  },
  {
    query: "12 in skillet",
    must: ["ck-lodge-skillet-12in"],
    mustNot: ["ht-irwin-quick-grip-clamp-12", "gd-bloem-terra-pot-12"],
    note: "the 10.25 in. skillet and other pans are fine"
  },
  {
    query: "18v drill",
    must: ["dr-makita-xfd131-18v", "dr-ryobi-one-18v"],
    mustNot: GRILLS,
    note: "20V drills and 18V trimmers are fine"
  },
  {
    query: "dcd771",
    must: ["dr-dewalt-dcd771c2"],
    mustNot: GRILLS,
    note: "other DEWALT tools are fine"
  },
  {
    query: "iphone 15 case",
    must: ["ph-otterbox-defender-iphone15", "ph-spigen-tough-armor-iphone15pro"],
    mustNot: [],
    note: "the iPhone 14 case is fine below them"
  },

  // ---- Colour and multi-word
  {
    query: "red tshirt",
    must: [
      `${variantId("hanes-comfortsoft-tee", "Red", "M")}|${variantId("hanes-comfortsoft-tee", "Red", "L")}`,
      variantId("gildan-heavy-cotton-tee", "Red", "L"),
      "tee-underarmour-tech-red-m"
    ],
    mustNot: [
      variantId("jcrew-pleated-midi-skirt", "Red", "8"),
      "gd-knockout-double-red-rose",
      "ty-radioflyer-classic-red-wagon"
    ],
    note: "other tees are fine below the red ones; red things that are not shirts are not"
  },
  {
    query: "black sneakers",
    must: [variantId("nike-af1", "Black", "9"), variantId("converse-chuck-hi", "Black", "8")],
    mustNot: SPEAKERS,
    note: "other sneakers are fine below the black ones"
  }
]
