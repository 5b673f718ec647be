/**
 * The precision suite's catalog: a small real-looking shop (issue 36) of some 330 products over
 * 20 departments, written the way shops write their feeds (brand + model + kind + key
 * attributes in the title, one or two sentences of description, a "Dept > Sub > Leaf"
 * product_type), with apparel and footwear sold as variants of an item group.
 *
 * It plants the traps that made shoppers distrust the results:
 *  - real words one edit apart in different departments: sneakers/speakers, drill/grill,
 *    beans/jeans, candle/handle, pants/pans/plants, lamp/camp/clamp/ramp/damp, mug/rug/bug,
 *    boots/boats/BOTE, socks/locks/sock(et), shirt/skirt/short, pot/pet/pit, bag/rag, cable/table,
 *    mat/hat/bat/cat, cap/cup, desk/disk, vest/nest/best, tee/tea, chair/hair, coat/cot/boat,
 *    hose/house/rose, couch/coach, sofa/soda, lotion/motion, lock/clock, dress/press,
 *    heater/heather, pen/pan/penn, fan/pan, ball/bell, buds/beds;
 *  - prefix traps: pan → Pantry/Pantene/Panasonic, cap → capsules, bed → Bedsure/Bedding/bedside,
 *    bat → battery/bath, bag → bagels, hat → hatchet/Hatch, rug → rugby, bowl → bowling,
 *    pot → potty/potato/Pottery Barn, dress → dresser, sock → socket, table → tablet;
 *  - part words, compounds and meaning: saucepan/frying pan, Galaxy Buds2 Pro and AirPods Pro
 *    (no "earbuds" in their text), T-Shirt/Tee/T Shirt/Tshirt, sofa vs couch, grill vs bbq,
 *    Bluetooth vs wireless, bedside table vs nightstand, sneakers vs trainers;
 *  - model numbers and sizes: WH-1000XM5 beside WH-1000XM4, WF-1000XM5 and a 1000 piece puzzle,
 *    R-5 beside R-13 and R-15 insulation and insulated tumblers, 65W chargers beside a 45W
 *    charger and a "65W equivalent" bulb, 18V, 12 in., 20V MAX.
 *
 * Prices are plain numbers in the shop's currency; every product is a valid ProductRecord
 * (src/domain/Product.ts) once `id` is taken off (see `productRecord`).
 */
import type { ProductRecord } from "../../src/domain/Product.js"

export type Availability = "in_stock" | "out_of_stock" | "preorder" | "backorder"

export interface CatalogProduct {
  readonly id: string
  readonly title: string
  readonly description: string
  readonly brand: string
  /** "Dept > Sub > Leaf". */
  readonly product_type: string
  readonly price: number
  readonly sale_price?: number
  readonly availability: Availability
  readonly color?: string
  readonly size?: string
  readonly item_group_id?: string
  readonly gender?: "male" | "female" | "unisex"
  readonly age_group?: "newborn" | "infant" | "toddler" | "kids" | "adult"
  readonly material?: string
}

/** The wire record of a product (PUT /product/{id} `data`, a bulk line's `data`). */
export const productRecord = ({ id: _id, ...data }: CatalogProduct): ProductRecord => data

/** Further fields of a row; a `product_type` here is the row's own category, under the department's. */
type Extra = Partial<Omit<CatalogProduct, "id" | "title" | "description" | "brand" | "price">>

/** One row of a department: id, brand, title, price, description and any further fields. */
type Row = readonly [id: string, brand: string, title: string, price: number, description: string, extra?: Extra]

const under = (department: string, rows: ReadonlyArray<Row>): ReadonlyArray<CatalogProduct> =>
  rows.map(([id, brand, title, price, description, extra]) => ({
    id,
    title,
    description,
    brand,
    product_type: department,
    price,
    availability: "in_stock",
    ...extra
  }))

interface Group {
  /** The item_group_id; variant ids are `${group}-${colour}-${size}` in lower-case words. */
  readonly group: string
  readonly brand: string
  readonly product_type: string
  readonly price: number
  readonly description: string
  /** The variant's title: shops mostly name the colour in it, some leave it to the colour field. */
  readonly title: (color: string, size: string) => string
  readonly gender?: CatalogProduct["gender"]
  readonly material?: string
}

type Variant = readonly [color: string, size: string, extra?: Extra]

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")

/** Variant id of a group by colour and size, e.g. variantId("hanes-tee", "Red", "M") = "hanes-tee-red-m". */
export const variantId = (group: string, color: string, size: string) => `${group}-${slug(color)}-${slug(size)}`

const variants = (g: Group, list: ReadonlyArray<Variant>): ReadonlyArray<CatalogProduct> =>
  list.map(([color, size, extra]) => ({
    id: variantId(g.group, color, size),
    title: g.title(color, size),
    description: g.description,
    brand: g.brand,
    product_type: g.product_type,
    price: g.price,
    availability: "in_stock",
    color,
    size,
    item_group_id: g.group,
    ...(g.gender ? { gender: g.gender } : {}),
    ...(g.material ? { material: g.material } : {}),
    ...extra
  }))

// ---------------------------------------------------------------- Electronics

const headphones = under("Electronics > Audio > Headphones", [
  [
    "hp-bose-qc45",
    "Bose",
    "Bose QuietComfort 45 Bluetooth Headphones",
    279,
    "Over-ear noise cancelling headphones with up to 24 hours of battery life and a lightweight, plush fit.",
    { color: "Triple Black" }
  ],
  [
    "hp-sony-wh1000xm5",
    "Sony",
    "Sony WH-1000XM5 Wireless Noise Canceling Headphones",
    399.99,
    "Industry-leading noise canceling with eight microphones, 30-hour battery life and multipoint pairing.",
    { color: "Black" }
  ],
  [
    "hp-sony-wh1000xm4",
    "Sony",
    "Sony WH-1000XM4 Wireless Noise Canceling Over-Ear Headphones",
    349.99,
    "The previous generation of Sony's flagship over-ear headphones, with speak-to-chat and 30-hour battery.",
    { sale_price: 248, color: "Midnight Blue" }
  ],
  [
    "hp-beats-solo4",
    "Beats",
    "Beats Solo 4 On-Ear Wireless Headphones",
    199.99,
    "Lightweight on-ear headphones with up to 50 hours of playback and lossless audio over USB-C.",
    { color: "Cloud Pink" }
  ],
  [
    "hp-jbl-tune510bt",
    "JBL",
    "JBL Tune 510BT Wireless On-Ear Headphones",
    49.95,
    "JBL Pure Bass sound, 40 hours of battery and a foldable design for commuting.",
    { color: "Blue" }
  ],
  [
    "hp-soundcore-q30",
    "Soundcore",
    "Soundcore by Anker Life Q30 Hybrid Active Noise Cancelling Headphones",
    79.99,
    "Bluetooth 5.0 over-ear headphones with hi-res audio, 40-hour playtime and soft protein leather ear cups."
  ],
  [
    "hp-sennheiser-hd560s",
    "Sennheiser",
    "Sennheiser HD 560S Open-Back Wired Headphones",
    199.95,
    "Reference-grade open-back headphones for critical listening, with a detachable 3 m cable."
  ],
  [
    "hp-audiotechnica-m50x",
    "Audio-Technica",
    "Audio-Technica ATH-M50x Professional Studio Monitor Headphones",
    149,
    "Closed-back studio headphones with 45 mm drivers and swiveling ear cups for one-ear monitoring."
  ]
])

const earbuds = under("Electronics > Audio > Earbuds", [
  [
    "eb-airpods-pro2",
    "Apple",
    "Apple AirPods Pro (2nd Generation) with MagSafe Charging Case (USB-C)",
    249,
    "Active Noise Cancellation, Adaptive Audio and Personalized Spatial Audio in an in-ear design with silicone tips.",
    { color: "White" }
  ],
  [
    "eb-galaxy-buds2-pro",
    "Samsung",
    "Samsung Galaxy Buds2 Pro True Wireless Bluetooth",
    229.99,
    "24-bit Hi-Fi sound, intelligent active noise cancelling and an ergonomic in-ear fit.",
    { sale_price: 169.99, color: "Graphite" }
  ],
  [
    "eb-sony-wf1000xm5",
    "Sony",
    "Sony WF-1000XM5 Truly Wireless Noise Canceling Earbuds",
    299.99,
    "Sony's smallest flagship earbuds with the best noise canceling it has made and a charging case.",
    { color: "Black" }
  ],
  [
    "eb-beats-studio-buds-plus",
    "Beats",
    "Beats Studio Buds + True Wireless Noise Cancelling Earbuds",
    169.99,
    "Earbuds with transparency mode, 36 hours of battery with the case, and one-touch pairing for iOS and Android.",
    { color: "Transparent" }
  ],
  [
    "eb-jabra-elite4",
    "Jabra",
    "Jabra Elite 4 True Wireless Earbuds",
    99.99,
    "Active noise cancellation, four microphones for clear calls and an IP55 rating against sweat and rain.",
    { color: "Navy" }
  ],
  [
    "eb-panasonic-rzb110",
    "Panasonic",
    "Panasonic RZ-B110 Wireless Earbuds",
    29.99,
    "Compact Bluetooth earbuds with XBS deep bass and up to 6.5 hours of playback.",
    { color: "Black" }
  ],
  [
    "eb-skullcandy-dime3",
    "Skullcandy",
    "Skullcandy Dime 3 True Wireless In-Ear Earbuds",
    29.99,
    "Pocket-sized earbuds with a keychain case, 20 hours of battery and Tile tracking built in.",
    { color: "True Black" }
  ]
])

const speakers = under("Electronics > Audio > Speakers", [
  [
    "spk-jbl-flip6",
    "JBL",
    "JBL Flip 6 Portable Waterproof Bluetooth Speaker",
    129.95,
    "Bold JBL Original Pro Sound in a rugged IP67 body with 12 hours of playtime.",
    { color: "Red" }
  ],
  [
    "spk-jbl-charge5",
    "JBL",
    "JBL Charge 5 Portable Bluetooth Speaker with Power Bank",
    179.95,
    "Room-filling sound with a separate tweeter, 20 hours of play and a built-in power bank.",
    { color: "Black" }
  ],
  [
    "spk-bose-soundlink-flex",
    "Bose",
    "Bose SoundLink Flex Bluetooth Portable Speaker",
    149,
    "Waterproof, dustproof portable speaker that floats, with PositionIQ to sound right in any orientation.",
    { color: "Stone Blue" }
  ],
  [
    "spk-sonos-era100",
    "Sonos",
    "Sonos Era 100 Smart Speaker",
    249,
    "Compact smart speaker with stereo sound, voice control and Bluetooth and Wi-Fi streaming.",
    { color: "White" }
  ],
  [
    "spk-ue-wonderboom4",
    "Ultimate Ears",
    "Ultimate Ears WONDERBOOM 4 Portable Waterproof Speaker",
    99.99,
    "Drop-proof and floating outdoor speaker with 14 hours of battery and an outdoor boost mode.",
    { color: "Hyper Pink" }
  ],
  [
    "spk-soundcore-motion300",
    "Soundcore",
    "Soundcore Motion 300 Wireless Hi-Res Portable Speaker",
    79.99,
    "30 W stereo sound with hi-res audio over LDAC and a strap for carrying.",
    { color: "Frost Blue" }
  ],
  [
    "spk-edifier-r1280t",
    "Edifier",
    "Edifier R1280T Powered Bookshelf Speakers",
    119.99,
    "A pair of active studio monitor speakers with wood finish, two RCA inputs and a remote control."
  ],
  [
    "spk-google-nest-mini",
    "Google",
    "Google Nest Mini (2nd Gen) Smart Speaker with Google Assistant",
    49,
    "Small smart speaker that plays music and controls compatible smart home devices by voice.",
    { color: "Chalk" }
  ],
  [
    "spk-echo-dot5",
    "Amazon",
    "Amazon Echo Dot (5th Gen) Smart Speaker with Alexa",
    49.99,
    "Alexa's most popular smart speaker with clearer vocals and deeper bass.",
    { color: "Charcoal" }
  ]
])

const soundbars = under("Electronics > Audio > Soundbars", [
  [
    "sb-sonos-beam2",
    "Sonos",
    "Sonos Beam (Gen 2) Smart Soundbar",
    499,
    "Compact soundbar with Dolby Atmos for TV, music and gaming, connected over HDMI eARC."
  ],
  [
    "sb-vizio-v21",
    "VIZIO",
    "VIZIO V-Series 2.1 Home Theater Sound Bar with Subwoofer",
    179.99,
    "A 36-inch sound bar with a wireless subwoofer, DTS Virtual:X and Bluetooth streaming."
  ],
  [
    "sb-samsung-hwb550",
    "Samsung",
    "Samsung HW-B550 2.1ch Soundbar with Dolby Audio",
    197.99,
    "410 W soundbar with a wireless subwoofer and Bass Boost for movies and sport."
  ]
])

const chargersAndCables = [
  ...under("Electronics > Computer Accessories > Chargers", [
    [
      "chg-anker-735-65w",
      "Anker",
      "Anker 735 Charger (Nano II 65W) 3-Port Fast Compact USB-C Charger",
      59.99,
      "GaN II wall charger that powers a laptop, a tablet and a phone at once with 65 W in total."
    ],
    [
      "chg-ugreen-nexode-65w",
      "UGREEN",
      "UGREEN Nexode 65W USB C Charger 3-Port GaN Wall Charger",
      45.99,
      "Foldable plug, two USB-C ports and one USB-A port; charges a MacBook Air at full speed."
    ],
    [
      "chg-anker-313-45w",
      "Anker",
      "Anker 313 Charger (Ace, 45W) USB-C Wall Charger",
      25.99,
      "Single-port 45 W charger with Power Delivery for phones, tablets and small laptops."
    ],
    [
      "chg-apple-20w",
      "Apple",
      "Apple 20W USB-C Power Adapter",
      19,
      "Fast, efficient charging at home, in the office or on the go for iPhone and iPad."
    ],
    [
      "chg-belkin-magsafe-3in1",
      "Belkin",
      "Belkin BoostCharge Pro 3-in-1 Wireless Charging Stand with MagSafe 15W",
      149.99,
      "Charges an iPhone, an Apple Watch and AirPods at the same time on one stand."
    ],
    [
      "chg-anker-powercore-10000",
      "Anker",
      "Anker PowerCore 10000 Portable Charger Power Bank",
      21.99,
      "Pocket-sized 10,000 mAh battery pack that charges a phone more than twice."
    ]
  ]),
  ...under("Electronics > Computer Accessories > Cables", [
    [
      "cbl-anker-usbc-100w",
      "Anker",
      "Anker USB C to USB C Cable 100W 6 ft Braided Charging Cable",
      15.99,
      "Double-braided nylon cable for fast charging laptops, tablets and phones.",
      { color: "Black" }
    ],
    [
      "cbl-apple-usbc-lightning",
      "Apple",
      "Apple USB-C to Lightning Cable (1 m)",
      19,
      "Connects an iPhone with a Lightning connector to a USB-C port for charging and syncing."
    ],
    [
      "cbl-amazon-hdmi-6ft",
      "Amazon Basics",
      "Amazon Basics High-Speed HDMI Cable 6 Feet",
      8.99,
      "Supports 4K video at 60 Hz, 3D and audio return channel between a TV and a console."
    ],
    [
      "cbl-cablematters-cat6",
      "Cable Matters",
      "Cable Matters Cat 6 Ethernet Cable 25 ft",
      12.99,
      "Snagless gigabit network cable for routers, switches and desktop computers.",
      { color: "Blue" }
    ]
  ]),
  ...under("Electronics > Computer Accessories > Mice", [
    [
      "ms-logitech-mx-master3s",
      "Logitech",
      "Logitech MX Master 3S Wireless Performance Mouse",
      99.99,
      "Quiet clicks, an 8K DPI sensor that tracks on glass and a MagSpeed scroll wheel.",
      { color: "Graphite" }
    ],
    [
      "ms-logitech-m185",
      "Logitech",
      "Logitech M185 Wireless Mouse",
      14.99,
      "Compact mouse with a plug-and-play USB receiver and a battery that lasts a year."
    ]
  ]),
  ...under("Electronics > Computer Accessories > Keyboards", [
    [
      "kb-logitech-k380",
      "Logitech",
      "Logitech K380 Multi-Device Bluetooth Keyboard",
      39.99,
      "Slim keyboard that pairs with three devices and switches between them at a touch."
    ],
    [
      "kb-keychron-k2",
      "Keychron",
      "Keychron K2 Wireless Mechanical Keyboard",
      89.99,
      "75% layout mechanical keyboard with Gateron brown switches and Mac and Windows keycaps."
    ]
  ])
]

const storageAndTablets = [
  ...under("Electronics > Storage > External Drives", [
    [
      "st-samsung-t7-1tb",
      "Samsung",
      "Samsung T7 Portable SSD 1TB USB 3.2",
      89.99,
      "Pocket-sized solid state drive with transfer speeds up to 1,050 MB/s.",
      { color: "Titan Gray" }
    ],
    [
      "st-wd-elements-2tb",
      "WD",
      "WD 2TB Elements Portable External Hard Disk Drive",
      69.99,
      "Plug-and-play USB 3.0 hard disk drive for backups and extra storage."
    ],
    [
      "st-sandisk-cruzer-64gb",
      "SanDisk",
      "SanDisk Cruzer Blade 64GB USB Flash Drive",
      9.99,
      "Compact USB flash drive for carrying documents, photos and music."
    ]
  ]),
  ...under("Electronics > Storage > Memory Cards", [
    [
      "st-sandisk-ultra-128gb",
      "SanDisk",
      "SanDisk Ultra 128GB microSDXC Memory Card",
      14.99,
      "Class 10 memory card for Android phones and tablets, with an SD adapter."
    ]
  ]),
  ...under("Electronics > Tablets", [
    [
      "tab-apple-ipad-10",
      "Apple",
      "Apple iPad 10.9-inch Tablet (10th Generation) Wi-Fi 64GB",
      349,
      "All-screen design with a Liquid Retina display, A14 Bionic chip and a landscape front camera.",
      { color: "Blue" }
    ],
    [
      "tab-galaxy-tab-a9plus",
      "Samsung",
      "Samsung Galaxy Tab A9+ 11-inch Android Tablet 64GB",
      219.99,
      "Large 90 Hz screen and quad speakers for streaming, reading and video calls.",
      { color: "Graphite" }
    ],
    [
      "tab-amazon-fire-hd10",
      "Amazon",
      "Amazon Fire HD 10 Tablet 32GB",
      139.99,
      "A 10.1-inch full HD tablet with all-day battery for reading, streaming and games."
    ]
  ]),
  ...under("Electronics > Phone Accessories > Cases", [
    [
      "ph-otterbox-defender-iphone15",
      "OtterBox",
      "OtterBox Defender Series Case for iPhone 15",
      59.95,
      "Multi-layer protection with a holster that doubles as a kickstand.",
      { color: "Black" }
    ],
    [
      "ph-spigen-tough-armor-iphone15pro",
      "Spigen",
      "Spigen Tough Armor MagSafe Case for iPhone 15 Pro",
      24.99,
      "Dual-layer case with a built-in kickstand and MagSafe compatible magnets.",
      { color: "Gunmetal" }
    ],
    [
      "ph-otterbox-symmetry-iphone14",
      "OtterBox",
      "OtterBox Symmetry Series Case for iPhone 14",
      49.95,
      "Slim one-piece case with raised edges to protect the screen and camera.",
      { color: "Clear" }
    ]
  ])
]

const smartHome = [
  ...under("Electronics > Smart Home > Thermostats", [
    [
      "sh-google-nest-thermostat",
      "Google",
      "Google Nest Thermostat Smart Programmable Wi-Fi Thermostat",
      129.99,
      "Helps save energy with schedules you set from your phone and works with most heating and cooling systems.",
      { color: "Snow" }
    ]
  ]),
  ...under("Electronics > Smart Home > Cameras", [
    [
      "sh-google-nest-cam-indoor",
      "Google",
      "Google Nest Cam Indoor Wired 2nd Gen",
      99.99,
      "Indoor security camera with HDR video, night vision and alerts for people, animals and vehicles."
    ],
    [
      "sh-ring-video-doorbell",
      "Ring",
      "Ring Video Doorbell Wired",
      64.99,
      "Hardwired video doorbell with 1080p HD video, two-way talk and motion detection."
    ]
  ]),
  ...under("Electronics > Smart Home > Smart Plugs", [
    [
      "sh-kasa-smart-plug-4pk",
      "Kasa",
      "Kasa Smart Plug Mini 15A 4-Pack",
      29.99,
      "Control lamps and small appliances from an app or by voice; no hub required."
    ]
  ])
]

// ---------------------------------------------------------------- Footwear

const sneakers = [
  ...variants(
    {
      group: "nike-af1",
      brand: "Nike",
      product_type: "Footwear > Sneakers > Lifestyle Sneakers",
      price: 115,
      description: "The basketball original with crisp leather, stitched overlays and Nike Air cushioning.",
      title: (color) => `Nike Air Force 1 '07 Men's Sneakers - ${color}`,
      gender: "male",
      material: "Leather"
    },
    [
      ["White", "9"],
      ["White", "10"],
      ["Black", "9"],
      ["White/University Red", "10"]
    ]
  ),
  ...variants(
    {
      group: "converse-chuck-hi",
      brand: "Converse",
      product_type: "Footwear > Sneakers > Lifestyle Sneakers",
      price: 65,
      description: "The canvas high top with a vulcanized rubber sole and the star ankle patch.",
      title: (color) => `Converse Chuck Taylor All Star High Top Sneakers - ${color}`,
      gender: "unisex",
      material: "Canvas"
    },
    [
      ["Black", "8"],
      ["Optical White", "9"],
      ["Red", "10"],
      ["Navy", "9"]
    ]
  ),
  ...variants(
    {
      group: "adidas-ultraboost",
      brand: "adidas",
      product_type: "Footwear > Athletic Shoes > Running Shoes",
      price: 190,
      description: "Light BOOST cushioning and a Primeknit upper for long runs and all-day wear.",
      title: () => "adidas Ultraboost Light Running Shoes",
      gender: "male"
    },
    [
      ["Core Black", "9"],
      ["Cloud White", "10"],
      ["Solar Red", "9"]
    ]
  ),
  ...under("Footwear > Sneakers > Lifestyle Sneakers", [
    [
      "snk-newbalance-574-grey-10",
      "New Balance",
      "New Balance 574 Core Sneakers",
      89.99,
      "The iconic suede and mesh sneaker with ENCAP midsole cushioning.",
      { color: "Grey", size: "10", gender: "male" }
    ],
    [
      "snk-veja-campo-white-9",
      "Veja",
      "Veja Campo Leather Sneakers",
      150,
      "Low-top sneakers in chrome-free leather with a wild rubber sole.",
      { color: "White Natural", size: "9", gender: "unisex" }
    ],
    [
      "snk-vans-oldskool-8",
      "Vans",
      "Vans Old Skool Classic Skate Shoes",
      70,
      "Suede and canvas low tops with the sidestripe and a waffle outsole.",
      { color: "Black/White", size: "8", gender: "unisex" }
    ]
  ]),
  ...under("Footwear > Athletic Shoes > Running Shoes", [
    [
      "run-brooks-ghost15-10",
      "Brooks",
      "Brooks Ghost 15 Men's Running Shoes",
      139.95,
      "Neutral road running shoe with DNA LOFT v2 cushioning for smooth transitions.",
      { color: "Black/Blackened Pearl", size: "10", gender: "male" }
    ],
    [
      "run-hoka-clifton9-8",
      "HOKA",
      "HOKA Clifton 9 Women's Running Shoes",
      145,
      "Lighter and softer with a responsive foam and an early-stage Meta-Rocker.",
      { color: "Blue Fog", size: "8", gender: "female" }
    ],
    [
      "run-skechers-gowalk6-9",
      "Skechers",
      "Skechers GO WALK 6 Slip-On Walking Shoes",
      65,
      "Lightweight slip-on shoes with ULTRA GO cushioning and an air-cooled insole.",
      { color: "Navy", size: "9", gender: "female" }
    ]
  ])
]

const boots = [
  ...variants(
    {
      group: "timberland-6in",
      brand: "Timberland",
      product_type: "Footwear > Boots > Work Boots",
      price: 210,
      description: "Seam-sealed waterproof nubuck leather boots with padded collars and a lug outsole.",
      title: (color) => `Timberland Men's 6-Inch Premium Waterproof Boots - ${color}`,
      gender: "male",
      material: "Nubuck leather"
    },
    [
      ["Wheat Nubuck", "9"],
      ["Wheat Nubuck", "10"],
      ["Black Nubuck", "10"]
    ]
  ),
  ...under("Footwear > Boots", [
    [
      "boot-drmartens-1460-black-8",
      "Dr. Martens",
      "Dr. Martens 1460 Smooth Leather Lace Up Boots",
      170,
      "The original 8-eye boot with yellow welt stitching and an air-cushioned sole.",
      { color: "Black", size: "8", gender: "unisex" }
    ],
    [
      "boot-merrell-moab3-mid-10",
      "Merrell",
      "Merrell Moab 3 Mid Waterproof Hiking Boots",
      145,
      "Out-of-the-box comfort on the trail with a Vibram sole and a waterproof membrane.",
      { color: "Earth", size: "10", gender: "male" }
    ],
    [
      "boot-hunter-original-tall-7",
      "Hunter",
      "Hunter Original Tall Rain Boots",
      175,
      "Handcrafted natural rubber wellington boots, waterproof to the knee.",
      { color: "Black", size: "7", gender: "female" }
    ],
    [
      "boot-sorel-caribou-9",
      "Sorel",
      "Sorel Caribou Waterproof Winter Boots",
      190,
      "Snow boots with a removable felt liner rated to -40 degrees and a seam-sealed shell.",
      { color: "Buff", size: "9", gender: "male" }
    ],
    [
      "boot-columbia-newton-ridge-11",
      "Columbia",
      "Columbia Newton Ridge Plus Waterproof Hiking Boot",
      90,
      "Leather and mesh hiking boot with Omni-Grip traction and a waterproof seam-sealed construction.",
      { color: "Dark Brown", size: "11", gender: "male" }
    ]
  ])
]

const sandalsAndSlippers = under("Footwear > Sandals & Slippers", [
  [
    "sd-birkenstock-arizona-9",
    "Birkenstock",
    "Birkenstock Arizona Soft Footbed Sandals",
    145,
    "Two-strap sandals with a contoured cork footbed and an extra layer of foam.",
    { color: "Taupe Suede", size: "9", gender: "unisex" }
  ],
  [
    "sd-teva-hurricane-10",
    "Teva",
    "Teva Hurricane XLT2 Sport Sandals",
    75,
    "Hook-and-loop straps and a grippy rubber sole for hiking, rivers and beaches.",
    { color: "Black", size: "10", gender: "male" }
  ],
  [
    "sd-crocs-classic-clog-9",
    "Crocs",
    "Crocs Classic Clogs",
    49.99,
    "Lightweight Croslite clogs with ventilation ports and pivoting heel straps.",
    { color: "Navy", size: "9", gender: "unisex" }
  ],
  [
    "sd-havaianas-top-8",
    "Havaianas",
    "Havaianas Top Flip Flops",
    26,
    "Classic rubber flip flops made in Brazil, soft and waterproof.",
    { color: "Black", size: "8", gender: "unisex" }
  ],
  [
    "sd-dearfoams-house-slippers-m",
    "Dearfoams",
    "Dearfoams Women's Fireside House Slippers",
    40,
    "Plush shearling-lined slippers with a suede upper and a durable indoor/outdoor sole.",
    { color: "Chestnut", size: "M", gender: "female" }
  ]
])

// ---------------------------------------------------------------- Apparel

const tees = [
  ...variants(
    {
      group: "hanes-comfortsoft-tee",
      brand: "Hanes",
      product_type: "Apparel > Tops > T-Shirts",
      price: 8,
      description: "Soft, breathable ring-spun cotton crewneck with a tag-free neck.",
      title: (color) => `Hanes Men's ComfortSoft Short Sleeve T-Shirt, ${color}`,
      gender: "male",
      material: "Cotton"
    },
    [
      ["Red", "M"],
      ["Red", "L"],
      ["Black", "M"],
      ["Heather Grey", "L"],
      ["White", "M"]
    ]
  ),
  ...variants(
    {
      group: "gildan-heavy-cotton-tee",
      brand: "Gildan",
      product_type: "Apparel > Tops > T-Shirts",
      price: 6.5,
      description: "Classic fit heavyweight cotton tee with taped neck and shoulders.",
      title: (color) => `Gildan Heavy Cotton Tee - ${color}`,
      gender: "unisex",
      material: "Cotton"
    },
    [
      ["Navy", "M"],
      ["Red", "L"],
      ["Heather Grey", "M"],
      ["Black", "XL"]
    ]
  ),
  ...variants(
    {
      group: "champion-jersey-tee",
      brand: "Champion",
      product_type: "Apparel > Tops > T-Shirts",
      price: 20,
      description: "Everyday jersey cotton T shirt with the C logo on the sleeve.",
      title: () => "Champion Classic Jersey T Shirt",
      gender: "male",
      material: "Cotton"
    },
    [
      ["Oxford Grey", "S"],
      ["Black", "M"],
      ["Scarlet", "L"]
    ]
  ),
  ...under("Apparel > Tops > T-Shirts", [
    [
      "tee-uniqlo-u-crew-white-m",
      "Uniqlo",
      "Uniqlo U Crew Neck Short-Sleeve T-Shirt",
      19.9,
      "Heavy, smooth cotton jersey with a sturdy ribbed collar that keeps its shape.",
      { color: "White", size: "M", gender: "unisex" }
    ],
    [
      "tee-carhartt-pocket-brown-l",
      "Carhartt",
      "Carhartt Loose Fit Heavyweight Short-Sleeve Pocket T-Shirt",
      24.99,
      "Workwear tee in heavyweight cotton jersey with a left-chest pocket.",
      { color: "Carhartt Brown", size: "L", gender: "male" }
    ],
    [
      "tee-underarmour-tech-red-m",
      "Under Armour",
      "Under Armour Tech 2.0 Short Sleeve Tshirt",
      25,
      "Quick-drying, ultra-soft training shirt with a more natural feel.",
      { color: "Red", size: "M", gender: "male" }
    ],
    [
      "tee-madewell-whisper-crew-s",
      "Madewell",
      "Madewell Whisper Cotton Crewneck Tee",
      24.5,
      "Lightweight, drapey women's tee in slub cotton.",
      { color: "Heather Mocha", size: "S", gender: "female" }
    ]
  ])
]

const shirts = under("Apparel > Tops > Shirts", [
  [
    "shirt-brooksbrothers-oxford-15",
    "Brooks Brothers",
    "Brooks Brothers Regent Fit Oxford Button-Down Shirt",
    98,
    "Supima cotton oxford with the original button-down collar.",
    { color: "Blue", size: "15.5/33", gender: "male" }
  ],
  [
    "shirt-uniqlo-flannel-m",
    "Uniqlo",
    "Uniqlo Flannel Long-Sleeve Checked Shirt",
    39.9,
    "Brushed cotton flannel shirt, soft and warm.",
    { color: "Red", size: "M", gender: "male" }
  ],
  [
    "shirt-wrangler-western-l",
    "Wrangler",
    "Wrangler Cowboy Cut Work Western Shirt",
    34.99,
    "Long-sleeve twill shirt with snap buttons and two flap pockets.",
    { color: "Denim", size: "L", gender: "male" }
  ],
  [
    "shirt-columbia-bahama-m",
    "Columbia",
    "Columbia PFG Bahama II Short Sleeve Shirt",
    45,
    "Quick-drying fishing shirt with UPF 30 sun protection and vented back.",
    { color: "Vivid Blue", size: "M", gender: "male" }
  ],
  [
    "shirt-ralphlauren-polo-m",
    "Polo Ralph Lauren",
    "Polo Ralph Lauren Custom Slim Fit Mesh Polo Shirt",
    110,
    "The iconic cotton mesh polo with the embroidered pony.",
    { color: "Navy", size: "M", gender: "male" }
  ]
])

const skirtsAndShorts = [
  ...variants(
    {
      group: "jcrew-pleated-midi-skirt",
      brand: "J.Crew",
      product_type: "Apparel > Bottoms > Skirts",
      price: 98,
      description: "A flowy pleated skirt that falls just below the knee, with an elastic waist.",
      title: (color) => `J.Crew Pleated Midi Skirt - ${color}`,
      gender: "female"
    },
    [
      ["Black", "4"],
      ["Navy", "6"],
      ["Red", "8"]
    ]
  ),
  ...under("Apparel > Bottoms > Skirts", [
    [
      "sk-freepeople-denim-mini-s",
      "Free People",
      "Free People Denim Mini Skirt",
      68,
      "Rigid denim mini with a raw hem and a high rise.",
      { color: "Light Wash", size: "S", gender: "female" }
    ],
    [
      "sk-lululemon-pace-rival-4",
      "lululemon",
      "lululemon Pace Rival Mid-Rise Skirt",
      68,
      "Running skirt with built-in liner shorts and a hidden pocket.",
      { color: "Black", size: "4", gender: "female" }
    ]
  ]),
  ...under("Apparel > Bottoms > Shorts", [
    [
      "sho-patagonia-baggies-m",
      "Patagonia",
      "Patagonia Baggies 5-Inch Shorts",
      59,
      "Quick-drying nylon shorts with a mesh liner for swimming and hiking.",
      { color: "Navy", size: "M", gender: "male" }
    ],
    [
      "sho-nike-challenger-l",
      "Nike",
      "Nike Dri-FIT Challenger Men's Running Shorts",
      45,
      "Lightweight 7-inch running shorts with a brief liner.",
      { color: "Black", size: "L", gender: "male" }
    ]
  ])
]

const jeansAndPants = [
  ...variants(
    {
      group: "levis-501",
      brand: "Levi's",
      product_type: "Apparel > Bottoms > Jeans",
      price: 79.5,
      description: "The original button-fly straight leg jean in non-stretch denim.",
      title: (color) => `Levi's 501 Original Fit Men's Jeans - ${color}`,
      gender: "male",
      material: "Cotton denim"
    },
    [
      ["Dark Stonewash", "32x32"],
      ["Dark Stonewash", "34x32"],
      ["Black", "32x32"],
      ["Light Indigo", "34x30"]
    ]
  ),
  ...under("Apparel > Bottoms > Jeans", [
    [
      "jn-wrangler-cowboy-cut-34x34",
      "Wrangler",
      "Wrangler Cowboy Cut Original Fit Jeans",
      44.99,
      "Heavyweight rigid denim, cut for riding, with a higher rise.",
      { color: "Rigid Indigo", size: "34x34", gender: "male" }
    ],
    [
      "jn-madewell-skinny-27",
      "Madewell",
      "Madewell 10-Inch High-Rise Skinny Jeans",
      128,
      "Curvy skinny jeans in stretchy denim that holds its shape.",
      { color: "Lucille Wash", size: "27", gender: "female" }
    ],
    [
      "jn-levis-721-black-28",
      "Levi's",
      "Levi's Women's 721 High-Rise Skinny Jeans - Black",
      69.5,
      "A sculpting high rise and a skinny leg in soft stretch denim.",
      { color: "Black", size: "28", gender: "female" }
    ]
  ]),
  ...variants(
    {
      group: "dickies-874",
      brand: "Dickies",
      product_type: "Apparel > Bottoms > Pants",
      price: 36.99,
      description: "Classic straight-leg work pants in wrinkle-resistant twill that hold a crease.",
      title: (color) => `Dickies 874 Original Fit Work Pants - ${color}`,
      gender: "male",
      material: "Polyester/cotton twill"
    },
    [
      ["Khaki", "32x30"],
      ["Black", "34x32"],
      ["Navy", "32x32"],
      ["Dark Brown", "36x32"]
    ]
  ),
  ...under("Apparel > Bottoms > Pants", [
    [
      "pants-carhartt-rugged-flex-34x32",
      "Carhartt",
      "Carhartt Rugged Flex Relaxed Fit Canvas Work Pants",
      54.99,
      "Durable canvas pants with stretch and a gusseted crotch for ease of movement.",
      { color: "Dark Khaki", size: "34x32", gender: "male" }
    ],
    [
      "pants-columbia-silver-ridge-m",
      "Columbia",
      "Columbia Silver Ridge Convertible Hiking Pants",
      60,
      "Zip-off legs turn these sun-protective nylon pants into shorts.",
      { color: "Sage", size: "M", gender: "male" }
    ],
    [
      "pants-lululemon-abc-32",
      "lululemon",
      "lululemon ABC Slim-Fit Trousers 32 in.",
      128,
      "Stretchy, four-way stretch Warpstreme trousers for the office and travel.",
      { color: "Obsidian", size: "32", gender: "male" }
    ]
  ])
]

const socksAndVests = [
  ...variants(
    {
      group: "darntough-hiker-crew",
      brand: "Darn Tough",
      product_type: "Apparel > Socks",
      price: 26,
      description: "Merino wool hiking socks with cushioning underfoot and a lifetime guarantee.",
      title: (color) => `Darn Tough Hiker Micro Crew Midweight Cushion Socks - ${color}`,
      gender: "unisex",
      material: "Merino wool"
    },
    [
      ["Gray", "M"],
      ["Taupe", "L"],
      ["Navy", "M"]
    ]
  ),
  ...under("Apparel > Socks", [
    [
      "sock-bombas-ankle-4pk",
      "Bombas",
      "Bombas Ankle Socks 4-Pack",
      51.8,
      "Cushioned ankle socks with a blister tab and honeycomb arch support.",
      { color: "Mixed", size: "M", gender: "unisex" }
    ],
    [
      "sock-smartwool-everyday-rib",
      "Smartwool",
      "Smartwool Everyday Solid Rib Crew Socks",
      21,
      "Light merino wool socks for everyday wear.",
      { color: "Charcoal", size: "L", gender: "unisex" }
    ],
    [
      "sock-hanes-cushion-crew-12pk",
      "Hanes",
      "Hanes Men's Cushion Crew Socks 12-Pack",
      19.99,
      "Cotton-rich crew socks with a cushioned foot bottom.",
      { color: "White", size: "6-12", gender: "male" }
    ]
  ]),
  ...variants(
    {
      group: "patagonia-better-sweater-vest",
      brand: "Patagonia",
      product_type: "Apparel > Outerwear > Vests",
      price: 119,
      description: "Sweater-knit fleece vest made of recycled polyester, warm and easy to layer.",
      title: () => "Patagonia Better Sweater Fleece Vest",
      gender: "male",
      material: "Recycled polyester fleece"
    },
    [
      ["Black", "S"],
      ["New Navy", "M"],
      ["Oatmeal Heather", "L"]
    ]
  ),
  ...under("Apparel > Outerwear > Vests", [
    [
      "vs-northface-nuptse-vest-m",
      "The North Face",
      "The North Face 1996 Retro Nuptse Vest",
      199,
      "Boxy 700-fill down vest with a stowable hood.",
      { color: "TNF Black", size: "M", gender: "unisex" }
    ]
  ])
]

const hats = [
  ...variants(
    {
      group: "newera-9forty",
      brand: "New Era",
      product_type: "Apparel > Accessories > Hats",
      price: 29.99,
      description: "Adjustable curved-visor baseball cap with a strap closure.",
      title: (color) => `New Era 9FORTY Adjustable Baseball Cap - ${color}`,
      gender: "unisex"
    },
    [
      ["Navy", "One Size"],
      ["Black", "One Size"],
      ["Red", "One Size"]
    ]
  ),
  ...under("Apparel > Accessories > Hats", [
    [
      "hat-carhartt-watch-beanie",
      "Carhartt",
      "Carhartt Knit Cuffed Beanie",
      19.99,
      "Rib-knit acrylic watch hat with a cuff and the Carhartt label.",
      { color: "Black", size: "One Size", gender: "unisex" }
    ],
    [
      "hat-columbia-bora-bora-booney",
      "Columbia",
      "Columbia Bora Bora Booney Sun Hat",
      30,
      "Wide-brim sun hat with UPF 50 and a chin cord.",
      { color: "Fossil", size: "One Size", gender: "unisex" }
    ],
    [
      "hat-kangol-bermuda-bucket",
      "Kangol",
      "Kangol Bermuda Bucket Hat",
      62,
      "Textured bucket hat with the kangaroo logo.",
      { color: "Black", size: "M", gender: "unisex" }
    ],
    [
      "hat-patagonia-p6-trucker",
      "Patagonia",
      "Patagonia P-6 Logo LoPro Trucker Hat",
      39,
      "Low-profile trucker hat with a mesh back and a snap closure.",
      { color: "Ink Black", size: "One Size", gender: "unisex" }
    ]
  ])
]

const outerwearAndMore = [
  ...under("Apparel > Outerwear > Jackets & Coats", [
    [
      "jk-northface-thermoball-m",
      "The North Face",
      "The North Face ThermoBall Eco Insulated Jacket",
      230,
      "Packable synthetic-insulated jacket that stays warm when wet.",
      { color: "TNF Black", size: "M", gender: "male" }
    ],
    [
      "jk-columbia-watertight-l",
      "Columbia",
      "Columbia Watertight II Rain Jacket",
      90,
      "Waterproof, breathable shell with a stowable hood that packs into its own pocket.",
      { color: "Collegiate Navy", size: "L", gender: "male" }
    ],
    [
      "jk-landsend-down-coat-m",
      "Lands' End",
      "Lands' End Women's Down Winter Coat",
      249,
      "Long 600-fill down coat with a hood and a water-repellent shell.",
      { color: "Black", size: "M", gender: "female" }
    ],
    [
      "jk-londonfog-trench-coat-l",
      "London Fog",
      "London Fog Men's Classic Trench Coat",
      179,
      "Double-breasted belted trench coat with a removable liner.",
      { color: "British Khaki", size: "L", gender: "male" }
    ]
  ]),
  ...under("Apparel > Tops > Sweatshirts & Sweaters", [
    [
      "sw-champion-reverse-weave-hoodie",
      "Champion",
      "Champion Reverse Weave Pullover Hoodie",
      70,
      "Heavyweight fleece hoodie cut on the cross-grain to resist shrinking.",
      { color: "Oxford Grey", size: "L", gender: "male" }
    ],
    [
      "sw-carhartt-midweight-hooded",
      "Carhartt",
      "Carhartt Loose Fit Midweight Hooded Sweatshirt",
      59.99,
      "Cotton-blend hooded sweatshirt with a front hand-warmer pocket.",
      { color: "Heather Grey", size: "XL", gender: "male" }
    ],
    [
      "sw-llbean-fisherman-cable-knit",
      "L.L.Bean",
      "L.L.Bean Cotton Fisherman Cable-Knit Sweater",
      89.95,
      "Classic crewneck sweater with a cable knit, in soft cotton.",
      { color: "Natural", size: "M", gender: "female" }
    ]
  ]),
  ...under("Apparel > Dresses", [
    [
      "dr-amazon-essentials-summer-dress",
      "Amazon Essentials",
      "Amazon Essentials Women's Short-Sleeve Summer Dress",
      23.9,
      "Lightweight jersey dress with a relaxed fit and a scoop neck.",
      { color: "Navy Floral", size: "M", gender: "female" }
    ],
    [
      "dr-lulus-wrap-midi-dress",
      "Lulus",
      "Lulus Wrap Midi Dress",
      64,
      "Woven wrap dress with flutter sleeves and a tie waist.",
      { color: "Rust Red", size: "S", gender: "female" }
    ],
    [
      "dr-levis-western-shirt-dress",
      "Levi's",
      "Levi's Western Shirt Dress",
      79.5,
      "Denim shirt dress with snap buttons and a removable belt.",
      { color: "Mid Wash", size: "S", gender: "female" }
    ]
  ])
]

// ---------------------------------------------------------------- Kitchen

const cookware = [
  ...under("Kitchen > Cookware > Saucepans", [
    [
      "ck-allclad-d3-saucepan-3qt",
      "All-Clad",
      "All-Clad D3 Stainless Steel 3-Quart Saucepan",
      189.95,
      "Tri-ply bonded stainless steel saucepan with a lid, oven-safe to 600 degrees."
    ],
    [
      "ck-calphalon-saucepan-2-5qt",
      "Calphalon",
      "Calphalon Classic Nonstick 2.5-Quart Saucepan with Cover",
      49.99,
      "Hard-anodized aluminum saucepan with pour spouts and a straining lid."
    ]
  ]),
  ...under("Kitchen > Cookware > Frying Pans & Skillets", [
    [
      "ck-tfal-ultimate-frypan-12",
      "T-fal",
      "T-fal Ultimate Hard Anodized Nonstick 12-Inch Frying Pan",
      39.99,
      "Scratch-resistant nonstick fry pan with a heat indicator that shows when it is preheated."
    ],
    [
      "ck-oxo-nonstick-frypan-10",
      "OXO",
      "OXO Good Grips 10-Inch Nonstick Frying Pan",
      34.99,
      "Three-layer German-engineered nonstick coating and a comfortable stainless steel handle."
    ],
    [
      "ck-madein-stainless-frypan-10",
      "Made In",
      "Made In 10 Inch Stainless Clad Frying Pan",
      99,
      "Five-ply stainless clad pan made in Italy, for searing and pan sauces."
    ],
    [
      "ck-allclad-d3-saute-4qt",
      "All-Clad",
      "All-Clad D3 Stainless Steel 4-Quart Saute Pan with Lid",
      249.95,
      "Wide, straight-sided saute pan for braising, shallow frying and one-pan dinners."
    ],
    [
      "ck-lodge-skillet-12in",
      "Lodge",
      "Lodge 12 in. Pre-Seasoned Cast Iron Skillet",
      34.9,
      "Cast iron skillet seasoned with vegetable oil, for the stove, the oven or the campfire."
    ],
    [
      "ck-lodge-skillet-10in",
      "Lodge",
      "Lodge 10.25 in. Pre-Seasoned Cast Iron Skillet",
      24.9,
      "The classic cast iron skillet, ready to use, with a helper handle."
    ],
    [
      "ck-lodge-grill-pan",
      "Lodge",
      "Lodge Cast Iron Square Grill Pan 10.5 Inch",
      39.9,
      "Ribbed cast iron pan that sears grill marks into steak and vegetables on the stove."
    ],
    [
      "ck-joycechen-wok-14",
      "Joyce Chen",
      "Joyce Chen Classic Series 14-Inch Carbon Steel Wok",
      39.99,
      "Carbon steel wok with a birch handle for stir-frying at high heat."
    ]
  ]),
  ...under("Kitchen > Cookware > Pots & Dutch Ovens", [
    [
      "ck-lecreuset-dutch-oven-5-5qt",
      "Le Creuset",
      "Le Creuset Enameled Cast Iron Signature Round Dutch Oven 5.5 Qt",
      419.95,
      "Enameled cast iron for slow cooking, braising and baking bread.",
      { color: "Cerise" }
    ],
    [
      "ck-cuisinart-stockpot-12qt",
      "Cuisinart",
      "Cuisinart Chef's Classic 12-Quart Stainless Stockpot with Cover",
      59.99,
      "Large stainless steel pot for stocks, soups and pasta, with an aluminum encapsulated base."
    ],
    [
      "ck-tfal-cookware-set-12pc",
      "T-fal",
      "T-fal Signature Nonstick Cookware Set 12 Piece Pots and Pans",
      79.99,
      "Two fry pans, two saucepans, a dutch oven and utensils, all with Thermo-Spot heat indicators."
    ]
  ]),
  ...under("Kitchen > Bakeware", [
    [
      "ck-nordicware-half-sheet",
      "Nordic Ware",
      "Nordic Ware Natural Aluminum Half Sheet Pan",
      21.99,
      "Commercial-grade aluminum baking sheet that will never rust."
    ],
    [
      "ck-wilton-muffin-pan-12",
      "Wilton",
      "Wilton Standard Muffin and Cupcake Pan 12 Cup",
      14.99,
      "Nonstick steel pan for a dozen muffins or cupcakes."
    ]
  ])
]

const smallAppliances = under("Kitchen > Small Appliances", [
  [
    "ka-instantpot-duo-6qt",
    "Instant Pot",
    "Instant Pot Duo 7-in-1 Electric Pressure Cooker 6 Quart",
    89.99,
    "Pressure cooker, slow cooker, rice cooker, steamer, saute pan, yogurt maker and warmer."
  ],
  [
    "ka-ninja-professional-blender",
    "Ninja",
    "Ninja Professional Countertop Blender 1000W",
    99.99,
    "72 oz pitcher and Total Crushing blades that turn ice to snow in seconds."
  ],
  [
    "ka-breville-barista-express",
    "Breville",
    "Breville Barista Express Espresso Machine",
    699.95,
    "Espresso machine with an integrated conical burr grinder and a steam wand.",
    { color: "Brushed Stainless Steel" }
  ],
  [
    "ka-keurig-k-classic",
    "Keurig",
    "Keurig K-Classic Single Serve K-Cup Pod Coffee Maker",
    109.99,
    "Brews 6, 8 or 10 oz cups from K-Cup pods in under a minute."
  ],
  [
    "ka-nespresso-vertuo-next",
    "Nespresso",
    "Nespresso Vertuo Next Coffee and Espresso Machine by De'Longhi",
    179,
    "Reads each capsule's barcode to brew espresso or a full mug of coffee."
  ],
  [
    "ka-bodum-chambord-french-press",
    "Bodum",
    "Bodum Chambord French Press Coffee Maker 8 Cup",
    44.99,
    "Borosilicate glass carafe with a stainless steel plunger for full-bodied coffee."
  ],
  [
    "ka-cuisinart-2-slice-toaster",
    "Cuisinart",
    "Cuisinart 2-Slice Compact Stainless Toaster",
    39.95,
    "Six shade settings with bagel, defrost and reheat buttons."
  ],
  [
    "ka-kitchenaid-artisan-mixer",
    "KitchenAid",
    "KitchenAid Artisan Series 5 Quart Tilt-Head Stand Mixer",
    449.99,
    "Ten speeds and a stainless steel bowl for doughs, batters and whipped cream.",
    { color: "Empire Red" }
  ],
  [
    "ka-ninja-air-fryer-4qt",
    "Ninja",
    "Ninja AF101 Air Fryer 4 Qt",
    99.99,
    "Air fry, roast, reheat and dehydrate with little or no oil."
  ],
  [
    "ka-sodastream-terra",
    "SodaStream",
    "SodaStream Terra Sparkling Water Maker",
    99.99,
    "Turns tap water into sparkling water at the push of a button; includes a CO2 cylinder."
  ]
])

const drinkwareAndTableware = [
  ...under("Kitchen > Drinkware > Mugs", [
    [
      "mug-lecreuset-stoneware-14oz",
      "Le Creuset",
      "Le Creuset Stoneware Mug 14 oz",
      30,
      "Glazed stoneware coffee mug that resists chipping and staining.",
      { color: "Cerise" }
    ],
    [
      "mug-ember-mug2-10oz",
      "Ember",
      "Ember Mug 2 Temperature Control Smart Mug 10 oz",
      129.95,
      "Keeps coffee at the exact temperature you choose for up to 90 minutes.",
      { color: "Black" }
    ],
    [
      "mug-yeti-rambler-14oz",
      "YETI",
      "YETI Rambler 14 oz Stackable Mug with MagSlider Lid",
      30,
      "Double-wall vacuum insulated stainless steel mug with a handle.",
      { color: "Navy" }
    ],
    [
      "mug-contigo-west-loop",
      "Contigo",
      "Contigo West Loop Stainless Steel Travel Mug 16 oz",
      24.99,
      "Spill-proof travel mug with an autoseal lid, keeps coffee hot for 5 hours."
    ]
  ]),
  ...under("Kitchen > Drinkware > Cups & Tumblers", [
    [
      "cup-stanley-quencher-40oz",
      "Stanley",
      "Stanley Quencher H2.0 FlowState Tumbler 40 oz",
      45,
      "Vacuum insulated stainless steel tumbler with a handle and a straw lid; fits most cup holders.",
      { color: "Rose Quartz" }
    ],
    [
      "cup-pyrex-measuring-2cup",
      "Pyrex",
      "Pyrex 2-Cup Glass Measuring Cup",
      9.99,
      "Tempered glass measuring cup with easy-to-read red markings."
    ],
    [
      "cup-dixie-paper-cups",
      "Dixie",
      "Dixie Everyday Paper Cups 9 oz 100 Count",
      6.49,
      "Disposable cups for cold drinks at parties and picnics."
    ]
  ]),
  ...under("Kitchen > Tableware > Bowls", [
    [
      "bowl-corelle-soup-cereal-6pc",
      "Corelle",
      "Corelle Vitrelle 18-oz Soup and Cereal Bowls Set of 6",
      29.99,
      "Chip-resistant triple-layer glass bowls, lightweight and stackable.",
      { color: "Winter Frost White" }
    ],
    [
      "bowl-pyrex-mixing-8pc",
      "Pyrex",
      "Pyrex Smart Essentials Glass Mixing Bowl Set 8 Piece",
      34.99,
      "Four nesting glass bowls with lids for mixing, serving and storage."
    ],
    [
      "bowl-oxo-stainless-mixing-3pc",
      "OXO",
      "OXO Good Grips 3-Piece Stainless Steel Mixing Bowl Set",
      49.99,
      "Non-slip bottoms and wide rims; the bowls nest for storage."
    ]
  ]),
  ...under("Kitchen > Tableware > Plates", [
    [
      "plate-corelle-dinner-6pc",
      "Corelle",
      "Corelle Vitrelle 10.25-Inch Dinner Plates Set of 6",
      34.99,
      "Lightweight, chip-resistant dinner plates that are dishwasher and microwave safe."
    ]
  ]),
  ...under("Kitchen > Utensils & Gadgets", [
    [
      "ut-oxo-garlic-press",
      "OXO",
      "OXO Good Grips Soft-Handled Garlic Press",
      19.99,
      "Large-capacity press with a built-in cleaner that pushes out the skins."
    ],
    [
      "ut-victorinox-chefs-knife-8",
      "Victorinox",
      "Victorinox Fibrox Pro 8-Inch Chef's Knife",
      49.95,
      "Stamped stainless steel blade with a non-slip Fibrox handle."
    ],
    [
      "ut-wusthof-classic-block-7pc",
      "Wüsthof",
      "Wüsthof Classic 7-Piece Knife Block Set",
      449.95,
      "Forged German steel knives with a hardwood block."
    ],
    [
      "ut-oxo-salad-spinner",
      "OXO",
      "OXO Good Grips Large Salad Spinner",
      34.99,
      "One-handed pump spinner with a brake and a clear bowl that doubles for serving."
    ],
    [
      "ut-lodge-hot-handle-holder",
      "Lodge",
      "Lodge Silicone Hot Handle Holder",
      7.99,
      "Slips over a cast iron skillet's handle to protect your hand up to 500 degrees.",
      { color: "Red" }
    ]
  ]),
  ...under("Kitchen > Food Storage", [
    [
      "fs-oxo-pop-pantry-10pc",
      "OXO",
      "OXO Good Grips 10-Piece POP Container Pantry Set",
      129.99,
      "Airtight, stackable canisters for flour, sugar, pasta and cereal."
    ],
    [
      "fs-rubbermaid-brilliance-pantry",
      "Rubbermaid",
      "Rubbermaid Brilliance Pantry Food Storage Containers 10-Piece",
      39.99,
      "Crystal-clear airtight containers with latching lids for dry goods."
    ]
  ])
]

// ---------------------------------------------------------------- Grocery

const grocery = [
  ...under("Grocery > Pantry > Canned Beans", [
    [
      "gr-bushs-best-black-beans",
      "Bush's Best",
      "Bush's Best Black Beans 15 oz Can",
      1.29,
      "Tender black beans, ready to heat for tacos, soups and rice bowls; a pantry staple."
    ],
    [
      "gr-goya-pinto-beans",
      "Goya",
      "Goya Pinto Beans 15.5 oz",
      1.19,
      "Premium pinto beans in a light brine, ready to use."
    ],
    [
      "gr-bushs-baked-beans-28oz",
      "Bush's Best",
      "Bush's Original Baked Beans 28 oz",
      2.99,
      "Slow-cooked navy beans with bacon and brown sugar."
    ],
    [
      "gr-amys-refried-beans",
      "Amy's",
      "Amy's Organic Traditional Refried Beans 15.4 oz",
      3.49,
      "Organic pinto beans, mashed and seasoned, for burritos and dips."
    ]
  ]),
  ...under("Grocery > Pantry > Pasta & Rice", [
    [
      "gr-barilla-spaghetti",
      "Barilla",
      "Barilla Spaghetti Pasta 16 oz",
      1.79,
      "Classic durum wheat spaghetti that cooks al dente in 9 minutes; keep a box in the pantry."
    ],
    [
      "gr-bens-original-rice",
      "Ben's Original",
      "Ben's Original Long Grain White Rice 2 lb",
      4.29,
      "Parboiled rice that cooks up fluffy and never sticky."
    ],
    [
      "gr-quaker-old-fashioned-oats",
      "Quaker",
      "Quaker Old Fashioned Rolled Oats 42 oz",
      5.49,
      "100% whole grain oats for oatmeal, cookies and granola."
    ]
  ]),
  ...under("Grocery > Pantry > Oils, Sauces & Spreads", [
    [
      "gr-raos-marinara",
      "Rao's",
      "Rao's Homemade Marinara Sauce 24 oz",
      8.99,
      "Slow-cooked Italian tomatoes, olive oil, onions and garlic."
    ],
    [
      "gr-sweet-baby-rays-bbq",
      "Sweet Baby Ray's",
      "Sweet Baby Ray's Original Barbecue Sauce 28 oz",
      3.99,
      "Sweet and tangy sauce for ribs, chicken and pulled pork."
    ],
    [
      "gr-stubbs-bar-b-q",
      "Stubb's",
      "Stubb's Original Bar-B-Q Sauce 18 oz",
      4.49,
      "Texas-style tomato and black pepper sauce for brisket and ribs."
    ],
    [
      "gr-cor-olive-oil",
      "California Olive Ranch",
      "California Olive Ranch Extra Virgin Olive Oil 16.9 oz",
      10.99,
      "Fresh, fruity everyday olive oil for the pantry."
    ],
    [
      "gr-skippy-creamy-peanut-butter",
      "Skippy",
      "Skippy Creamy Peanut Butter 16.3 oz",
      2.99,
      "Smooth peanut butter for sandwiches and baking."
    ]
  ]),
  ...under("Grocery > Pantry > Baking", [
    [
      "gr-kingarthur-flour-5lb",
      "King Arthur",
      "King Arthur All-Purpose Flour 5 lb",
      5.99,
      "Unbleached flour milled from American wheat for consistent baking."
    ],
    [
      "gr-bettycrocker-cupcake-mix",
      "Betty Crocker",
      "Betty Crocker Super Moist Vanilla Cake Mix 13.25 oz",
      2.29,
      "Makes 24 cupcakes or a two-layer cake."
    ]
  ]),
  ...under("Grocery > Coffee & Tea", [
    [
      "gr-lavazza-super-crema",
      "Lavazza",
      "Lavazza Super Crema Whole Bean Coffee 2.2 lb",
      22.99,
      "Mild and creamy medium espresso roast of Arabica and Robusta beans."
    ],
    [
      "gr-starbucks-pike-place",
      "Starbucks",
      "Starbucks Pike Place Roast Whole Bean Coffee 18 oz",
      13.99,
      "Smooth, well-rounded medium roast coffee beans with notes of cocoa."
    ],
    [
      "gr-nespresso-vertuo-capsules",
      "Nespresso",
      "Nespresso Vertuo Variety Pack Coffee Capsules 30 Count",
      36,
      "Assorted coffee and espresso pods for Vertuo machines."
    ],
    [
      "gr-greenmountain-kcups",
      "Green Mountain Coffee",
      "Green Mountain Breakfast Blend K-Cup Pods 48 Count",
      27.99,
      "Light roast single-serve coffee pods for Keurig brewers."
    ],
    [
      "gr-twinings-english-breakfast",
      "Twinings",
      "Twinings English Breakfast Tea 100 Tea Bags",
      9.49,
      "Full-bodied black tea blend, individually wrapped bags."
    ]
  ]),
  ...under("Grocery > Snacks & Bakery", [
    [
      "gr-thomas-everything-bagels",
      "Thomas'",
      "Thomas' Everything Bagels 6 Count",
      4.29,
      "Pre-sliced bagels topped with sesame, poppy seeds, garlic and onion."
    ],
    [
      "gr-kind-dark-chocolate-bars",
      "KIND",
      "KIND Dark Chocolate Nuts & Sea Salt Bars 12 Count",
      14.99,
      "Gluten-free snack bars with almonds and peanuts."
    ],
    [
      "gr-lays-classic-chips",
      "Lay's",
      "Lay's Classic Potato Chips 8 oz",
      4.49,
      "Thin, crispy chips made from farm-grown potatoes and a sprinkle of salt."
    ],
    [
      "gr-campbells-chunky-soup",
      "Campbell's",
      "Campbell's Chunky Classic Chicken Noodle Soup 18.8 oz",
      2.99,
      "Hearty ready-to-serve soup with chicken and vegetables."
    ]
  ])
]

// ---------------------------------------------------------------- Tools

const tools = [
  ...under("Tools > Power Tools > Drills", [
    [
      "dr-dewalt-dcd771c2",
      "DEWALT",
      "DEWALT 20V MAX Cordless Drill/Driver Kit (DCD771C2)",
      99,
      "Compact 1/2 in. drill/driver with two batteries, a charger and a bag.",
      { color: "Yellow" }
    ],
    [
      "dr-milwaukee-m18-fuel-hammer",
      "Milwaukee",
      "Milwaukee M18 FUEL 1/2 in. Hammer Drill/Driver Kit",
      399,
      "Brushless hammer drill with 1,200 in-lbs of torque for drilling masonry, with two batteries.",
      { color: "Red" }
    ],
    [
      "dr-makita-xfd131-18v",
      "Makita",
      "Makita XFD131 18V LXT Brushless Cordless 1/2 in. Driver-Drill Kit",
      179,
      "Compact brushless driver-drill with a two-speed transmission and LED light.",
      { color: "Teal" }
    ],
    [
      "dr-ryobi-one-18v",
      "Ryobi",
      "Ryobi ONE+ 18V Cordless 1/2 in. Drill/Driver Kit",
      79,
      "24-position clutch, a 1.5 Ah battery and a charger; works with every ONE+ battery.",
      { color: "Green" }
    ],
    [
      "dr-bosch-corded-hammer",
      "Bosch",
      "Bosch 1/2 in. Corded Hammer Drill 7 Amp",
      89,
      "Variable-speed corded hammer drill for concrete and brick, with a side handle.",
      { color: "Blue" }
    ],
    [
      "dr-blackdecker-20v",
      "BLACK+DECKER",
      "BLACK+DECKER 20V MAX Cordless Drill and Driver",
      49.99,
      "Lightweight drill for everyday jobs around the house, battery included."
    ]
  ]),
  ...under("Tools > Power Tools > Impact Drivers", [
    [
      "dr-dewalt-dcf885-impact",
      "DEWALT",
      "DEWALT 20V MAX Impact Driver Kit (DCF885C1)",
      129,
      "1/4 in. hex impact driver that drives long screws and lag bolts with ease.",
      { color: "Yellow" }
    ]
  ]),
  ...under("Tools > Power Tools > Saws", [
    [
      "saw-dewalt-circular-7-25",
      "DEWALT",
      "DEWALT 7-1/4 in. Corded Circular Saw 15 Amp",
      139,
      "Lightweight circular saw with an electric brake and a 57 degree bevel."
    ],
    [
      "saw-bosch-js470e-jigsaw",
      "Bosch",
      "Bosch JS470E Corded Jigsaw 7 Amp",
      119,
      "Top-handle jig saw with a tool-less blade change and low vibration for curved cuts."
    ]
  ]),
  ...under("Tools > Power Tools > Batteries & Chargers", [
    [
      "bat-dewalt-20v-5ah",
      "DEWALT",
      "DEWALT 20V MAX 5.0Ah Lithium Ion Battery",
      99,
      "High-capacity battery with a fuel gauge for all 20V MAX tools."
    ],
    [
      "chg-dewalt-dcb112",
      "DEWALT",
      "DEWALT 20V MAX Battery Charger (DCB112)",
      39,
      "Charges DEWALT 12V MAX and 20V MAX lithium ion batteries."
    ]
  ]),
  ...under("Tools > Hand Tools", [
    [
      "ht-estwing-hammer-16oz",
      "Estwing",
      "Estwing 16 oz Rip Claw Hammer",
      34.97,
      "Forged in one piece of American steel with a shock reduction grip."
    ],
    [
      "ht-stanley-tape-25ft",
      "Stanley",
      "Stanley 25 ft PowerLock Tape Measure",
      14.98,
      "Classic chrome tape measure with a blade lock and belt clip."
    ],
    [
      "ht-irwin-quick-grip-clamp-12",
      "Irwin",
      "Irwin Quick-Grip 12 in. One-Handed Bar Clamp",
      24.99,
      "Clamp and release with one hand; converts to a spreader."
    ],
    [
      "ht-klein-11in1-screwdriver",
      "Klein Tools",
      "Klein Tools 11-in-1 Screwdriver / Nut Driver",
      19.97,
      "Multi-bit screwdriver with Phillips, slotted, square and Torx bits and two nut drivers."
    ],
    [
      "ht-fiskars-x7-hatchet",
      "Fiskars",
      "Fiskars X7 Hatchet 14 Inch",
      39.99,
      "Lightweight splitting axe with a hardened blade and a shock-absorbing handle."
    ],
    [
      "ht-craftsman-socket-set-57pc",
      "Craftsman",
      "Craftsman 3/8 in. Drive Socket Set 57-Piece",
      59.98,
      "SAE and metric sockets with a 72-tooth ratchet in a blow-molded case."
    ],
    [
      "ht-dewalt-drill-bit-set",
      "DEWALT",
      "DEWALT Titanium Drill Bit Set 21-Piece",
      29.97,
      "Titanium nitride coated bits for drilling wood, plastic and metal."
    ]
  ])
]

// ---------------------------------------------------------------- Outdoor

const grills = [
  ...under("Outdoor > Grills & Smokers", [
    [
      "gl-weber-spirit-e310",
      "Weber",
      "Weber Spirit II E-310 3-Burner Liquid Propane Gas Grill",
      549,
      "Three stainless steel burners, porcelain-enameled cast iron grates and an open cart.",
      { color: "Black" }
    ],
    [
      "gl-weber-kettle-22",
      "Weber",
      "Weber Original Kettle 22-Inch Charcoal Grill",
      199,
      "The classic charcoal kettle with a One-Touch cleaning system and an ash catcher.",
      { color: "Black" }
    ],
    [
      "gl-traeger-pro575",
      "Traeger",
      "Traeger Pro 575 Wood Pellet Grill and Smoker",
      799.99,
      "Wi-Fi controlled pellet grill for smoking, roasting and baking with real wood flavor."
    ],
    [
      "gl-pitboss-700fb",
      "Pit Boss",
      "Pit Boss 700FB Pellet Grill",
      399,
      "Porcelain-coated cooking grids and a flame broiler for direct searing."
    ],
    [
      "gl-nexgrill-4-burner-bbq",
      "Nexgrill",
      "Nexgrill 4-Burner Propane Gas BBQ Grill with Side Burner",
      329,
      "Four burners and a side burner for sauces, with a stainless steel lid."
    ],
    [
      "gl-coleman-roadtrip-285",
      "Coleman",
      "Coleman RoadTrip 285 Portable Stand-Up Propane Grill",
      269.99,
      "Folding grill with three adjustable burners for tailgating and camping."
    ],
    [
      "gl-blackstone-36-griddle",
      "Blackstone",
      "Blackstone 36 Inch Outdoor Flat Top Gas Griddle",
      399,
      "Four-burner griddle station for smash burgers, breakfast and hibachi."
    ]
  ]),
  ...under("Outdoor > Grill Accessories", [
    [
      "ga-grillaholics-brush",
      "Grillaholics",
      "Grillaholics Grill Brush and Scraper",
      19.99,
      "Stainless steel bristles and a scraper for cleaning grates."
    ],
    [
      "ga-weber-spirit-cover",
      "Weber",
      "Weber Spirit 300 Series Premium Grill Cover",
      69.99,
      "Weather-resistant cover that fits Spirit 3-burner grills."
    ],
    [
      "ga-kingsford-charcoal-16lb",
      "Kingsford",
      "Kingsford Original Charcoal Briquettes 16 lb",
      12.98,
      "Briquettes that light faster and are ready to cook in about 15 minutes."
    ],
    [
      "ga-oxo-grilling-tongs",
      "OXO",
      "OXO Good Grips 16-Inch Grilling Tongs",
      17.99,
      "Long locking tongs with scalloped heads for flipping burgers and ribs."
    ]
  ])
]

const camping = [
  ...under("Outdoor > Camping > Camp Furniture", [
    [
      "cp-coleman-quad-chair",
      "Coleman",
      "Coleman Portable Camping Quad Chair with Cooler",
      39.99,
      "Folding chair with a built-in 4-can cooler pouch and a cup holder.",
      { color: "Blue" }
    ],
    [
      "cp-alps-king-kong-chair",
      "ALPS Mountaineering",
      "ALPS Mountaineering King Kong Camp Chair",
      79.99,
      "Oversized folding camp chair that holds up to 800 lbs.",
      { color: "Khaki" }
    ],
    [
      "cp-kijaro-dual-lock-chair",
      "Kijaro",
      "Kijaro Dual Lock Portable Camp Chair",
      44.99,
      "Folding chair that locks open and closed, with a mesh cup holder.",
      { color: "Wasatch Gray" }
    ],
    [
      "cp-coleman-trailhead-cot",
      "Coleman",
      "Coleman Trailhead II Camping Cot",
      64.99,
      "Steel-frame folding cot that fits a twin air mattress, with a side table."
    ]
  ]),
  ...under("Outdoor > Camping > Camp Kitchen", [
    [
      "cp-coleman-2-burner-stove",
      "Coleman",
      "Coleman Classic 2-Burner Propane Camp Stove",
      59.99,
      "Two adjustable burners and wind baffles for cooking at the campsite."
    ],
    [
      "cp-jetboil-flash",
      "Jetboil",
      "Jetboil Flash Camping and Backpacking Stove",
      129.95,
      "Boils water in 100 seconds, with a color-change heat indicator."
    ],
    [
      "cp-yeti-tundra-45",
      "YETI",
      "YETI Tundra 45 Hard Cooler",
      325,
      "Rotomolded cooler with up to 3 inches of insulation that keeps ice for days."
    ]
  ]),
  ...under("Outdoor > Camping > Tents & Shelter", [
    [
      "cp-coleman-sundome-4",
      "Coleman",
      "Coleman Sundome 4-Person Dome Tent",
      89.99,
      "Sets up in 10 minutes, with WeatherTec floors and large windows."
    ],
    [
      "cp-eno-doublenest-hammock",
      "ENO",
      "ENO DoubleNest Hammock",
      74.95,
      "Two-person nylon hammock that packs into its own stuff sack."
    ],
    [
      "cp-coleman-brazos-sleeping-bag",
      "Coleman",
      "Coleman Brazos Cold Weather Sleeping Bag 20°F",
      44.99,
      "Rectangular sleeping bag with a ZipPlow zipper and a Thermolock draft tube."
    ]
  ]),
  ...under("Outdoor > Camping > Lights", [
    [
      "cp-coleman-led-lantern",
      "Coleman",
      "Coleman Deluxe LED Camp Lantern 600 Lumens",
      34.99,
      "Battery-powered lantern with a high, low and night light mode."
    ],
    [
      "cp-blackdiamond-spot400",
      "Black Diamond",
      "Black Diamond Spot 400 Headlamp",
      49.95,
      "Waterproof 400-lumen headlamp with a red night-vision mode."
    ]
  ]),
  ...under("Outdoor > Camping > Insect Repellent", [
    [
      "cp-murphys-bug-spray",
      "Murphy's Naturals",
      "Murphy's Naturals Lemon Eucalyptus Oil Bug Spray 4 oz",
      9.99,
      "Plant-based insect repellent that keeps mosquitoes away for up to 6 hours."
    ]
  ])
]

const waterSports = under("Sports > Water Sports", [
  [
    "ws-intex-excursion4-boat",
    "Intex",
    "Intex Excursion 4 Inflatable Boat Set with Oars and Pump",
    189.99,
    "Four-person inflatable boat for lakes and rivers, with aluminum oars and a high-output pump."
  ],
  [
    "ws-intex-seahawk2-boat",
    "Intex",
    "Intex Seahawk 2 Inflatable Boat",
    69.99,
    "Two-person boat for fishing on calm water, with a grab line and oar locks."
  ],
  [
    "ws-sevylor-quikpak-kayak",
    "Sevylor",
    "Sevylor Quikpak K1 Coverless Sit-On-Top Kayak",
    209.99,
    "Inflatable kayak that folds into a backpack and sets up in five minutes."
  ],
  [
    "ws-bote-breeze-paddle-board",
    "BOTE",
    "BOTE Breeze Aero 10'8\" Inflatable Paddle Board",
    699,
    "Stable all-around stand-up paddle board with a paddle, pump and travel bag."
  ],
  [
    "ws-stearns-life-vest",
    "Stearns",
    "Stearns Adult Classic Series Life Vest",
    24.99,
    "US Coast Guard approved type III personal flotation device.",
    { color: "Red" }
  ]
])

// ---------------------------------------------------------------- Home

const lighting = under("Home > Lighting", [
  [
    "lt-brightech-sky-floor-lamp",
    "Brightech",
    "Brightech Sky LED Torchiere Floor Lamp",
    69.99,
    "Dimmable uplight floor lamp for living rooms and bedrooms.",
    { color: "Black" }
  ],
  [
    "lt-taotronics-led-desk-lamp",
    "TaoTronics",
    "TaoTronics LED Desk Lamp with USB Charging Port",
    32.99,
    "Five color modes and seven brightness levels with a touch control.",
    { color: "Black" }
  ],
  [
    "lt-benq-ereading-desk-lamp",
    "BenQ",
    "BenQ e-Reading LED Desk Lamp",
    199,
    "Wide, even light over a monitor or a desk with automatic dimming."
  ],
  [
    "lt-potterybarn-chelsea-table-lamp",
    "Pottery Barn",
    "Pottery Barn Chelsea Ceramic Table Lamp",
    199,
    "Glazed ceramic base with a linen drum shade.",
    { color: "White" }
  ],
  [
    "lt-globe-pendant-3-light",
    "Globe Electric",
    "Globe Electric 3-Light Pendant Ceiling Light",
    59.99,
    "Matte black pendant with exposed bulbs for kitchen islands.",
    { color: "Matte Black" }
  ],
  [
    "lt-philips-hue-a19",
    "Philips Hue",
    "Philips Hue White and Color Ambiance A19 Smart Bulb",
    49.99,
    "16 million colors and tunable white light, controlled by app or voice."
  ],
  [
    "lt-philips-br30-65w-equivalent",
    "Philips",
    "Philips 65W Equivalent BR30 LED Flood Light Bulb 6-Pack",
    24.97,
    "Dimmable soft white LED bulbs for recessed cans, using only 7.2 watts."
  ],
  [
    "lt-lepower-motion-sensor-light",
    "LEPOWER",
    "LEPOWER 35W LED Security Light Motion Sensor Outdoor",
    29.99,
    "Three adjustable heads light a driveway or a yard when someone walks by."
  ]
])

const candles = under("Home > Candles & Home Fragrance", [
  [
    "cd-yankee-balsam-cedar",
    "Yankee Candle",
    "Yankee Candle Balsam & Cedar Large Jar Candle",
    31.5,
    "Fresh evergreen and cedarwood scent with up to 150 hours of burn time."
  ],
  [
    "cd-bathbody-mahogany-3wick",
    "Bath & Body Works",
    "Bath & Body Works Mahogany Teakwood 3-Wick Candle",
    26.95,
    "Three wicks, 14.5 oz of soy-blend wax and a warm woody fragrance."
  ],
  [
    "cd-woodwick-vanilla-bean",
    "WoodWick",
    "WoodWick Vanilla Bean Medium Hourglass Candle",
    24.99,
    "A crackling wooden wick and a sweet vanilla scent."
  ],
  [
    "cd-chesapeake-peace-tranquility",
    "Chesapeake Bay Candle",
    "Chesapeake Bay Candle Peace + Tranquility Scented Candle",
    19.99,
    "Soy-blend candle with notes of bamboo and white flower."
  ],
  [
    "cd-hearth-hand-ceramic",
    "Hearth & Hand with Magnolia",
    "Hearth & Hand with Magnolia Ceramic Candle Vanilla Birch",
    15,
    "Scented candle in a matte ceramic vessel that can be reused as a planter."
  ],
  [
    "cd-luminara-led-pillars",
    "Luminara",
    "Luminara Moving Flame LED Pillar Candles Set of 3",
    79.99,
    "Flameless candles of real wax with a lifelike flickering flame and a timer."
  ],
  [
    "cd-candle-warmer-lamp",
    "Candle Warmers Etc.",
    "Candle Warmers Etc. Candle Warmer Lamp",
    34.99,
    "Melts a jar candle from the top with a halogen bulb, no flame needed."
  ],
  [
    "cd-nest-bamboo-reed-diffuser",
    "NEST New York",
    "NEST New York Bamboo Reed Diffuser",
    48,
    "Reed diffuser with a fresh bamboo and jasmine fragrance for a room."
  ]
])

const rugsAndBedding = [
  ...under("Home > Rugs", [
    [
      "rg-safavieh-hudson-shag-5x8",
      "Safavieh",
      "Safavieh Hudson Shag Collection 5' x 8' Area Rug",
      129.99,
      "Plush 2-inch shag pile rug in a solid color.",
      { color: "Ivory" }
    ],
    [
      "rg-nuloom-rigo-jute-5x8",
      "nuLOOM",
      "nuLOOM Rigo Hand Woven Farmhouse Jute Area Rug 5x8",
      109.99,
      "Natural jute rug with a chunky braided weave.",
      { color: "Natural" }
    ],
    [
      "rg-ruggable-washable-5x7",
      "Ruggable",
      "Ruggable Washable Indoor Rug 5x7",
      249,
      "Two-piece machine-washable rug system with a non-slip pad.",
      { color: "Blue" }
    ],
    [
      "rg-lahome-runner-2x6",
      "Lahome",
      "Lahome Boho Hallway Runner Rug 2x6",
      32.99,
      "Low-pile washable runner for hallways and kitchens.",
      { color: "Grey" }
    ],
    [
      "rg-gorillagrip-bath-rug",
      "Gorilla Grip",
      "Gorilla Grip Microfiber Bath Rug 30x20",
      19.99,
      "Soft, absorbent bath rug with a non-slip backing.",
      { color: "Sage" }
    ],
    [
      "rg-gorillagrip-door-mat",
      "Gorilla Grip",
      "Gorilla Grip All-Weather Outdoor Door Mat",
      24.99,
      "Rubber door mat that traps dirt and snow before it comes inside.",
      { color: "Black" }
    ]
  ]),
  ...under("Home > Bedding", [
    [
      "bd-brooklinen-luxe-sateen-queen",
      "Brooklinen",
      "Brooklinen Luxe Sateen Queen Sheet Set",
      189,
      "480 thread count long-staple cotton sheets with a buttery smooth feel.",
      { color: "White" }
    ],
    [
      "bd-bedsure-fleece-throw",
      "Bedsure",
      "Bedsure Fleece Throw Blanket 50x60",
      19.99,
      "Lightweight flannel fleece blanket for the sofa.",
      { color: "Grey" }
    ],
    [
      "bd-buffy-cloud-comforter-queen",
      "Buffy",
      "Buffy Cloud Comforter Queen",
      250,
      "Eucalyptus fabric comforter filled with recycled fiber, fluffy and cool."
    ],
    [
      "bd-utopia-duvet-cover-queen",
      "Utopia Bedding",
      "Utopia Bedding Queen Duvet Cover Set 3 Piece",
      26.99,
      "Brushed microfiber duvet cover with two pillow shams and a zipper closure.",
      { color: "Navy" }
    ],
    [
      "bd-zinus-green-tea-mattress-queen",
      "Zinus",
      "Zinus 12 Inch Green Tea Memory Foam Mattress Queen",
      299,
      "Memory foam infused with green tea and charcoal, delivered in a box."
    ],
    [
      "bd-beckham-bed-pillows-queen",
      "Beckham Hotel Collection",
      "Beckham Hotel Collection Bed Pillows Queen 2-Pack",
      59.99,
      "Gel fiber pillows for back, stomach and side sleepers."
    ]
  ])
]

const homeMisc = [
  ...under("Home > Decor > Clocks", [
    [
      "hm-bernhard-wall-clock-13",
      "Bernhard Products",
      "Bernhard Products Large Silent Wall Clock 13 Inch",
      24.99,
      "Non-ticking quartz wall clock with large numbers that are easy to read."
    ],
    [
      "hm-hatch-restore2",
      "Hatch",
      "Hatch Restore 2 Sunrise Alarm Clock",
      169.99,
      "Sound machine, reading light and a sunrise alarm that wakes you gently."
    ]
  ]),
  ...under("Home > Decor > Vases & Mirrors", [
    [
      "hm-umbra-hub-mirror-24",
      "Umbra",
      "Umbra Hub Round Wall Mirror 24 Inch",
      119,
      "Round mirror with a rubber frame for an entryway or a bathroom.",
      { color: "Black" }
    ],
    [
      "hm-sullivans-bud-vase-set",
      "Sullivans",
      "Sullivans Ceramic Bud Vase Set of 3",
      29.99,
      "Small matte vases for single stems and dried flowers.",
      { color: "White" }
    ]
  ]),
  ...under("Home > Cleaning", [
    [
      "cl-dyson-v8-cordless-vacuum",
      "Dyson",
      "Dyson V8 Cordless Vacuum Cleaner",
      349.99,
      "Lightweight stick vacuum with up to 40 minutes of run time and a whole-machine filter."
    ],
    [
      "cl-shark-navigator-upright",
      "Shark",
      "Shark Navigator Lift-Away Upright Vacuum",
      199.99,
      "Upright vacuum with a detachable pod for stairs and furniture."
    ],
    [
      "cl-homexcel-microfiber-rags",
      "HOMEXCEL",
      "HOMEXCEL Microfiber Cleaning Rags 12 Pack",
      14.99,
      "Lint-free cleaning cloths for kitchens, windows and cars."
    ],
    [
      "cl-finish-quantum-tablets-82",
      "Finish",
      "Finish Quantum Dishwasher Detergent Tablets 82 Count",
      22.99,
      "Dishwasher tabs with a PowerBall that removes dried-on food."
    ],
    [
      "cl-damprid-hanging-3pk",
      "DampRid",
      "DampRid Hanging Moisture Absorber 3-Pack",
      11.97,
      "Traps excess moisture in closets to fight musty odors."
    ]
  ]),
  ...under("Home > Bath", [
    [
      "bth-amazon-bath-towels-2pk",
      "Amazon Basics",
      "Amazon Basics Cotton Bath Towels 2-Pack",
      22.99,
      "Soft, absorbent 100% cotton towels.",
      { color: "White" }
    ],
    [
      "bth-gorillagrip-memory-foam-bath-mat",
      "Gorilla Grip",
      "Gorilla Grip Memory Foam Bath Mat",
      21.99,
      "Thick memory foam mat that dries quickly, with a non-slip backing.",
      { color: "Beige" }
    ]
  ]),
  ...under("Home > Heating & Cooling", [
    [
      "hc-lasko-ceramic-space-heater",
      "Lasko",
      "Lasko 754200 Ceramic Space Heater with Adjustable Thermostat",
      39.99,
      "1500 W portable heater with overheat protection and a cool-touch exterior."
    ],
    [
      "hc-dreo-atom-one-heater",
      "Dreo",
      "Dreo Atom One Space Heater 1500W",
      49.99,
      "Compact heater that warms a room in seconds, with tip-over protection."
    ],
    ["hc-lasko-box-fan-20", "Lasko", "Lasko 20 in. Box Fan", 29.99, "Three-speed box fan with a carry handle."],
    [
      "hc-dyson-tp07-purifier-fan",
      "Dyson",
      "Dyson Pure Cool TP07 Tower Fan Air Purifier",
      569.99,
      "Purifies the air of a room and cools it with an oscillating fan."
    ]
  ])
]

// ---------------------------------------------------------------- Hardware

const hardware = [
  ...under("Hardware > Door Hardware > Handles & Knobs", [
    [
      "dh-schlage-latitude-lever",
      "Schlage",
      "Schlage Latitude Satin Nickel Passage Door Handle",
      32.98,
      "Lever for hallway and closet doors that do not lock; fits standard door preps.",
      { color: "Satin Nickel" }
    ],
    [
      "dh-kwikset-halifax-handleset",
      "Kwikset",
      "Kwikset Halifax Front Entry Door Handleset with Deadbolt",
      149,
      "Exterior handleset with a single cylinder deadbolt and SmartKey re-key technology.",
      { color: "Venetian Bronze" }
    ],
    [
      "dh-kwikset-juno-knob",
      "Kwikset",
      "Kwikset Juno Entry Door Knob with Lock",
      19.98,
      "Keyed entry knob for exterior doors.",
      { color: "Satin Nickel" }
    ],
    [
      "dh-national-hardware-barn-handle",
      "National Hardware",
      "National Hardware Barn Door Handle Black",
      17.98,
      "Steel pull handle for sliding barn doors, mounting screws included.",
      { color: "Black" }
    ],
    [
      "dh-amerock-bar-pull-10pk",
      "Amerock",
      "Amerock Bar Cabinet Handle 5-1/16 in. Matte Black 10 Pack",
      29.98,
      "Modern bar pulls for kitchen cabinets and drawers.",
      { color: "Matte Black" }
    ]
  ]),
  ...under("Hardware > Door Hardware > Locks", [
    [
      "lk-kwikset-smartcode-916",
      "Kwikset",
      "Kwikset SmartCode 916 Touchscreen Electronic Deadbolt Smart Lock",
      179,
      "Keyless entry with a touchscreen keypad and auto-lock.",
      { color: "Satin Nickel" }
    ],
    [
      "lk-schlage-encode-wifi",
      "Schlage",
      "Schlage Encode Smart WiFi Deadbolt",
      249.99,
      "Built-in Wi-Fi deadbolt you can lock and unlock from anywhere.",
      { color: "Matte Black" }
    ],
    [
      "lk-yale-assure-2-keypad",
      "Yale",
      "Yale Assure Lock 2 Keypad Smart Lock",
      189.99,
      "Slim smart lock with a backlit keypad and app control."
    ],
    [
      "lk-masterlock-padlock-4pk",
      "Master Lock",
      "Master Lock 1.5 in. Laminated Steel Padlock 4-Pack",
      29.98,
      "Keyed-alike padlocks for sheds, gates and lockers."
    ],
    [
      "lk-masterlock-python-cable",
      "Master Lock",
      "Master Lock Python Adjustable Locking Cable 6 ft",
      29.97,
      "Braided steel locking cable for trailers, kayaks and grills."
    ]
  ]),
  ...under("Hardware > Building Materials > Insulation", [
    [
      "in-owens-foamular-r5",
      "Owens Corning",
      "Owens Corning FOAMULAR 150 R-5 1 in. x 4 ft. x 8 ft. Rigid Foam Board Insulation",
      39.98,
      "Extruded polystyrene foam board for basement walls and exterior sheathing."
    ],
    [
      "in-owens-ecotouch-r13",
      "Owens Corning",
      "Owens Corning R-13 EcoTouch Kraft Faced Fiberglass Insulation Roll 15 in. x 32 ft.",
      24.98,
      "Fiberglass insulation for 2x4 walls with a kraft vapor retarder."
    ],
    [
      "in-rockwool-comfortbatt-r15",
      "ROCKWOOL",
      "ROCKWOOL Comfortbatt R-15 Mineral Wool Insulation",
      64.98,
      "Fire-resistant stone wool batts for walls, with sound absorption."
    ]
  ]),
  ...under("Hardware > Accessibility > Ramps", [
    [
      "hw-ezaccess-threshold-ramp",
      "EZ-ACCESS",
      "EZ-ACCESS Transitions Rubber Threshold Ramp 2 in.",
      69,
      "Rubber ramp for doorways and sliding door tracks."
    ]
  ])
]

// ---------------------------------------------------------------- Furniture

const furniture = [
  ...under("Furniture > Living Room > Sofas", [
    [
      "fn-ikea-kivik-3seat",
      "IKEA",
      "IKEA KIVIK 3-Seat Sofa",
      899,
      "Generous deep seat with memory foam cushions and a washable cover.",
      { color: "Tresund Anthracite" }
    ],
    [
      "fn-article-sven-88",
      "Article",
      "Article Sven 88 in. Leather Sofa",
      2199,
      "Mid-century modern leather sofa with tufted cushions and solid wood legs.",
      { color: "Charme Tan" }
    ],
    [
      "fn-zinus-josh-loveseat",
      "Zinus",
      "Zinus Josh Loveseat Sofa",
      259,
      "Compact two-seat sofa with a button-tufted back, delivered in one box.",
      { color: "Grey" }
    ],
    [
      "fn-honbay-sectional",
      "Honbay",
      "Honbay Convertible Sectional Sofa L-Shaped",
      369,
      "Four-seat sectional with a reversible chaise for small living rooms.",
      { color: "Dark Grey" }
    ],
    [
      "fn-dhp-emily-futon",
      "DHP",
      "DHP Emily Futon Sofa Bed",
      229,
      "Converts from sofa to bed with a split back, in linen fabric.",
      { color: "Grey Linen" }
    ]
  ]),
  ...under("Furniture > Living Room > Chairs", [
    [
      "fn-polybark-napa-lounge-chair",
      "POLY & BARK",
      "POLY & BARK Napa Leather Lounge Chair",
      899,
      "Leather accent chair with a walnut frame.",
      { color: "Cognac" }
    ]
  ]),
  ...under("Furniture > Tables", [
    [
      "fn-zinus-becky-dining-table",
      "Zinus",
      "Zinus Becky Farmhouse Wood Dining Table",
      229,
      "Pine dining table that seats four, with a distressed finish."
    ],
    [
      "fn-walkeredison-coffee-table",
      "Walker Edison",
      "Walker Edison Modern Farmhouse Coffee Table",
      149,
      "Coffee table with a lower shelf and sliding barn door storage."
    ],
    [
      "fn-nathanjames-side-table",
      "Nathan James",
      "Nathan James Side Table with Drawer",
      89.99,
      "Small end table with a wood top and metal legs."
    ]
  ]),
  ...under("Furniture > Bedroom > Nightstands", [
    [
      "fn-sauder-harbor-view-bedside-table",
      "Sauder",
      "Sauder Harbor View Bedside Table",
      149.99,
      "Bedside table with a drawer and a door, in antiqued white.",
      { color: "Antiqued White" }
    ],
    [
      "fn-nathanjames-nightstand",
      "Nathan James",
      "Nathan James Nightstand with 2 Drawers",
      129.99,
      "Compact nightstand with wood drawers and a metal frame."
    ]
  ]),
  ...under("Furniture > Bedroom > Beds", [
    [
      "fn-zinus-shawn-bed-frame-queen",
      "Zinus",
      "Zinus Shawn 14 Inch Metal Platform Bed Frame Queen",
      119,
      "Steel platform bed frame with storage space underneath; no box spring needed."
    ],
    [
      "fn-novilla-upholstered-bed-queen",
      "Novilla",
      "Novilla Upholstered Platform Bed Queen",
      239,
      "Linen upholstered bed with a channel-tufted headboard and wood slats.",
      { color: "Light Grey" }
    ],
    [
      "fn-dhp-bunk-bed-twin",
      "DHP",
      "DHP Modern Metal Bunk Bed Twin over Twin",
      199,
      "Space-saving bunk bed with a ladder and full-length guard rails."
    ],
    [
      "fn-allewie-bed-frame-headboard",
      "Allewie",
      "Allewie Queen Bed Frame with Headboard",
      159,
      "Metal frame with a wooden headboard and 12 inches of clearance underneath."
    ]
  ]),
  ...under("Furniture > Bedroom > Dressers", [
    [
      "fn-ikea-malm-6-drawer-dresser",
      "IKEA",
      "IKEA MALM 6-Drawer Dresser",
      299,
      "Wide chest of drawers with smooth-running drawers and a white finish.",
      { color: "White" }
    ]
  ]),
  ...under("Furniture > Office > Desks", [
    [
      "fn-flexispot-e7-standing-desk",
      "FlexiSpot",
      "FlexiSpot E7 Electric Standing Desk 55 x 28 in.",
      499.99,
      "Dual-motor height adjustable desk with a memory keypad."
    ],
    [
      "fn-vari-electric-standing-desk",
      "Vari",
      "Vari Electric Standing Desk 60 x 30",
      695,
      "Sit-stand desk with a quiet motor and a spacious laminate top."
    ],
    [
      "fn-sauder-beginnings-computer-desk",
      "Sauder",
      "Sauder Beginnings Computer Desk",
      109.99,
      "Compact writing desk with a drawer and an open shelf."
    ],
    [
      "fn-ikea-micke-desk",
      "IKEA",
      "IKEA MICKE Desk White",
      109,
      "Desk with a drawer and cable outlet to hide cords.",
      { color: "White" }
    ]
  ]),
  ...under("Furniture > Storage > Bookcases", [
    [
      "fn-sauder-select-5-shelf-bookcase",
      "Sauder",
      "Sauder Select 5-Shelf Bookcase",
      99.99,
      "Tall bookcase with three adjustable shelves.",
      { color: "Cinnamon Cherry" }
    ]
  ])
]

// ---------------------------------------------------------------- Toys

const toys = under("Toys & Games", [
  [
    "ty-ravensburger-disney-castle-1000",
    "Ravensburger",
    "Ravensburger Disney Castle 1000 Piece Jigsaw Puzzle",
    21.99,
    "Softclick pieces that fit together perfectly, with a poster of the picture.",
    { product_type: "Toys & Games > Puzzles > Jigsaw Puzzles", age_group: "adult" }
  ],
  [
    "ty-buffalo-cinque-terre-500",
    "Buffalo Games",
    "Buffalo Games Cinque Terre 500 Piece Jigsaw Puzzle",
    14.99,
    "A colorful Italian harbor village in 500 pieces.",
    { product_type: "Toys & Games > Puzzles > Jigsaw Puzzles", age_group: "adult" }
  ],
  [
    "ty-lego-classic-brick-box-10698",
    "LEGO",
    "LEGO Classic Large Creative Brick Box 10698",
    59.99,
    "790 bricks in 33 colors with ideas to build.",
    { product_type: "Toys & Games > Building Toys > Building Sets", age_group: "kids" }
  ],
  [
    "ty-lego-technic-porsche-42056",
    "LEGO",
    "LEGO Technic Porsche 911 GT3 RS 42056",
    299.99,
    "A detailed model car with a working gearbox and steering.",
    { product_type: "Toys & Games > Building Toys > Building Sets", age_group: "adult" }
  ],
  [
    "ty-hotwheels-20-car-pack",
    "Hot Wheels",
    "Hot Wheels 20-Car Pack",
    21.99,
    "Twenty die-cast 1:64 scale cars.",
    { product_type: "Toys & Games > Vehicles > Die-Cast Cars", age_group: "kids" }
  ],
  [
    "ty-nerf-elite-commander",
    "Nerf",
    "Nerf Elite 2.0 Commander RD-6 Blaster",
    19.99,
    "Rotating 6-dart drum and 12 foam darts.",
    { product_type: "Toys & Games > Outdoor Play > Blasters", age_group: "kids" }
  ],
  [
    "ty-barbie-dreamhouse",
    "Barbie",
    "Barbie Dreamhouse Dollhouse with Pool and Slide",
    179,
    "Three-story dollhouse with 75 pieces, lights and sounds.",
    { product_type: "Toys & Games > Dolls > Dollhouses", age_group: "kids" }
  ],
  [
    "ty-melissadoug-wooden-blocks",
    "Melissa & Doug",
    "Melissa & Doug Wooden Building Blocks 100 Pieces",
    29.99,
    "Solid wood blocks in four colors and nine shapes.",
    { product_type: "Toys & Games > Building Toys > Blocks", age_group: "toddler" }
  ],
  [
    "ty-squishmallows-cam-the-cat",
    "Squishmallows",
    "Squishmallows 12-Inch Cam the Cat Plush",
    19.99,
    "Super-soft plush cat for hugging.",
    { product_type: "Toys & Games > Stuffed Animals > Plush", age_group: "kids" }
  ],
  [
    "ty-magnatiles-classic-32",
    "Magna-Tiles",
    "Magna-Tiles Classic 32-Piece Set",
    49.99,
    "Magnetic building tiles for 3D shapes.",
    { product_type: "Toys & Games > Building Toys > Magnetic Tiles", age_group: "kids" }
  ],
  [
    "ty-mattel-uno",
    "Mattel",
    "Mattel UNO Card Game",
    5.99,
    "The classic color and number matching card game for 2 to 10 players.",
    { product_type: "Toys & Games > Games > Card Games", age_group: "kids" }
  ],
  [
    "ty-greentoys-tugboat",
    "Green Toys",
    "Green Toys Tugboat Bath Toy",
    12.99,
    "Floating tugboat made of recycled plastic, for the tub.",
    { product_type: "Toys & Games > Baby & Toddler Toys > Bath Toys", age_group: "toddler" }
  ],
  [
    "ty-radioflyer-classic-red-wagon",
    "Radio Flyer",
    "Radio Flyer Classic Red Wagon",
    119.99,
    "Steel-body wagon with no-pinch folding handle.",
    { product_type: "Toys & Games > Outdoor Play > Wagons", age_group: "kids", color: "Red" }
  ]
])

// ---------------------------------------------------------------- Beauty

const beauty = under("Beauty", [
  [
    "be-pantene-daily-moisture-shampoo",
    "Pantene",
    "Pantene Pro-V Daily Moisture Renewal Shampoo 25.4 oz",
    8.99,
    "Hydrating shampoo for dry hair with pro-vitamin B5.",
    { product_type: "Beauty > Hair Care > Shampoo" }
  ],
  [
    "be-cerave-moisturizing-lotion",
    "CeraVe",
    "CeraVe Daily Moisturizing Lotion 19 oz",
    16.99,
    "Lightweight lotion with hyaluronic acid and three essential ceramides.",
    { product_type: "Beauty > Skin Care > Body Lotion" }
  ],
  [
    "be-aveeno-body-lotion",
    "Aveeno",
    "Aveeno Daily Moisturizing Body Lotion 18 oz",
    11.97,
    "Prebiotic oat lotion for dry skin, fragrance-free.",
    { product_type: "Beauty > Skin Care > Body Lotion" }
  ],
  [
    "be-dyson-supersonic-hair-dryer",
    "Dyson",
    "Dyson Supersonic Hair Dryer",
    429.99,
    "Fast drying without extreme heat, with five magnetic attachments.",
    { product_type: "Beauty > Hair Tools > Hair Dryers" }
  ],
  [
    "be-revlon-one-step-volumizer",
    "Revlon",
    "Revlon One-Step Volumizer Hair Dryer and Hot Air Brush",
    41.99,
    "Dries and styles in one step with an oval brush.",
    { product_type: "Beauty > Hair Tools > Hair Dryers" }
  ],
  [
    "be-chi-ceramic-flat-iron",
    "CHI",
    "CHI Original 1 in. Ceramic Hair Straightener Flat Iron",
    99.99,
    "Ceramic plates that heat evenly for smooth, shiny hair.",
    { product_type: "Beauty > Hair Tools > Flat Irons" }
  ],
  [
    "be-neutrogena-hydro-boost",
    "Neutrogena",
    "Neutrogena Hydro Boost Water Gel Face Moisturizer 1.7 oz",
    19.99,
    "Oil-free gel cream with hyaluronic acid.",
    { product_type: "Beauty > Skin Care > Face Moisturizers" }
  ],
  [
    "be-maybelline-lash-sensational",
    "Maybelline",
    "Maybelline Lash Sensational Washable Mascara",
    9.49,
    "Fanning brush for full, layered lashes.",
    { product_type: "Beauty > Makeup > Mascara" }
  ],
  [
    "be-olaplex-no3",
    "Olaplex",
    "Olaplex No. 3 Hair Perfector 3.3 oz",
    30,
    "At-home treatment that repairs broken bonds in damaged hair.",
    { product_type: "Beauty > Hair Care > Treatments" }
  ],
  [
    "be-burtsbees-lip-balm-4pk",
    "Burt's Bees",
    "Burt's Bees Beeswax Lip Balm 4 Pack",
    10.99,
    "Moisturizing lip balm with beeswax, vitamin E and peppermint oil.",
    { product_type: "Beauty > Skin Care > Lip Care" }
  ],
  [
    "be-oralb-io5-toothbrush",
    "Oral-B",
    "Oral-B iO Series 5 Electric Toothbrush",
    99.99,
    "Rechargeable toothbrush with a round brush head and a pressure sensor.",
    { product_type: "Beauty > Oral Care > Electric Toothbrushes" }
  ]
])

// ---------------------------------------------------------------- Sports

const sports = [
  ...under("Sports > Fitness > Yoga", [
    [
      "sp-lululemon-the-mat-5mm",
      "lululemon",
      "lululemon The Mat 5mm Yoga Mat",
      108,
      "Grippy polyurethane top layer and natural rubber base for sweaty practice.",
      { color: "Black" }
    ],
    [
      "sp-gaiam-essentials-mat-10mm",
      "Gaiam",
      "Gaiam Essentials Thick Yoga Mat 10mm",
      21.98,
      "Extra-thick foam mat with a carrying strap, for floor exercises and yoga.",
      { color: "Purple" }
    ],
    [
      "sp-manduka-pro-mat-6mm",
      "Manduka",
      "Manduka PRO Yoga Mat 6mm",
      129,
      "Dense, cushioned mat with a lifetime guarantee.",
      { color: "Black Magic" }
    ]
  ]),
  ...under("Sports > Fitness > Weights", [
    [
      "sp-bowflex-selecttech-552",
      "Bowflex",
      "Bowflex SelectTech 552 Adjustable Dumbbells",
      429,
      "Each dumbbell adjusts from 5 to 52.5 lbs with a turn of a dial."
    ],
    [
      "sp-amazon-kettlebell-20lb",
      "Amazon Basics",
      "Amazon Basics Cast Iron Kettlebell 20 lb",
      36.99,
      "Solid cast iron kettlebell with a wide handle."
    ]
  ]),
  ...under("Sports > Team Sports > Baseball", [
    [
      "sp-louisville-omaha-bbcor-bat",
      "Louisville Slugger",
      "Louisville Slugger Omaha BBCOR Baseball Bat",
      149.95,
      "One-piece alloy bat for high school and college play."
    ],
    [
      "sp-easton-alpha-alx-bat",
      "Easton",
      "Easton Alpha ALX USSSA Youth Baseball Bat",
      99.95,
      "Lightweight aluminum youth bat with a large barrel.",
      { age_group: "kids" }
    ],
    [
      "sp-rawlings-players-glove-10",
      "Rawlings",
      "Rawlings Players Series Youth Baseball Glove 10 in.",
      24.99,
      "Soft, game-ready youth glove with a basket web.",
      { age_group: "kids" }
    ]
  ]),
  ...under("Sports > Team Sports > Balls", [
    [
      "sp-wilson-nba-basketball",
      "Wilson",
      "Wilson NBA Authentic Indoor/Outdoor Basketball",
      39.99,
      "Composite leather basketball with deep channels for grip."
    ],
    [
      "sp-adidas-starlancer-soccer-ball",
      "adidas",
      "adidas Starlancer Club Soccer Ball",
      19.99,
      "Machine-stitched training ball with a butyl bladder.",
      { size: "5" }
    ],
    [
      "sp-penn-championship-tennis-balls",
      "Penn",
      "Penn Championship Extra Duty Tennis Balls 3 Can",
      4.99,
      "The best-selling tennis balls, pressurized for hard courts."
    ],
    [
      "sp-brunswick-tzone-bowling-ball",
      "Brunswick",
      "Brunswick T-Zone Bowling Ball",
      89.95,
      "Polyester bowling ball for straight shots, in 6 to 16 lbs."
    ],
    [
      "sp-gilbert-rugby-training-ball",
      "Gilbert",
      "Gilbert G-TR4000 Rugby Training Ball",
      24.99,
      "Durable rugby ball with a grip pattern for passing drills.",
      { size: "5" }
    ]
  ]),
  ...under("Sports > Cycling & Golf", [
    [
      "sp-bell-draft-mips-helmet",
      "Bell",
      "Bell Draft MIPS Bike Helmet",
      59.99,
      "Adult bike helmet with MIPS protection and an ergonomic fit system."
    ],
    [
      "sp-pride-golf-tees-100",
      "Pride",
      "Pride Professional Tee System 2-3/4 in. Golf Tees 100 Count",
      6.99,
      "Wood golf tees with a low-friction tip."
    ]
  ]),
  ...under("Sports > Hydration & Tech", [
    [
      "sp-hydroflask-32oz-wide-mouth",
      "Hydro Flask",
      "Hydro Flask 32 oz Wide Mouth Insulated Water Bottle",
      44.95,
      "TempShield insulated stainless steel bottle that keeps drinks cold for 24 hours.",
      { color: "Pacific" }
    ],
    [
      "sp-garmin-forerunner-265",
      "Garmin",
      "Garmin Forerunner 265 Running Smartwatch",
      449.99,
      "GPS running watch with an AMOLED display and training readiness."
    ]
  ])
]

// ---------------------------------------------------------------- Pet

const pet = under("Pet Supplies", [
  [
    "pet-kong-classic-large",
    "KONG",
    "KONG Classic Dog Toy Large",
    13.99,
    "Durable natural rubber toy to stuff with treats.",
    { product_type: "Pet Supplies > Dogs > Toys" }
  ],
  [
    "pet-furhaven-orthopedic-dog-bed",
    "Furhaven",
    "Furhaven Orthopedic Dog Bed Large",
    54.99,
    "Egg-crate foam dog bed with a bolster and a removable cover.",
    { product_type: "Pet Supplies > Dogs > Beds", color: "Espresso" }
  ],
  [
    "pet-bedsure-orthopedic-dog-bed",
    "Bedsure",
    "Bedsure Orthopedic Dog Bed for Medium Dogs",
    35.99,
    "Supportive foam pet bed with a washable cover and a waterproof lining.",
    { product_type: "Pet Supplies > Dogs > Beds", color: "Grey" }
  ],
  [
    "pet-bestfriends-donut-cat-bed",
    "Best Friends by Sheri",
    "Best Friends by Sheri Calming Donut Cat Bed",
    39.99,
    "Shag faux fur bed with a raised rim that cats and small dogs love.",
    { product_type: "Pet Supplies > Cats > Beds", color: "Taupe" }
  ],
  [
    "pet-amazon-cat-tree",
    "Amazon Basics",
    "Amazon Basics Cat Tree Tower with Scratching Posts",
    49.99,
    "Multi-level cat tree with a condo, perches and sisal posts.",
    { product_type: "Pet Supplies > Cats > Cat Trees" }
  ],
  [
    "pet-tidycats-clumping-litter",
    "Tidy Cats",
    "Tidy Cats Clumping Cat Litter 35 lb",
    21.99,
    "Multi-cat clumping litter with odor control.",
    { product_type: "Pet Supplies > Cats > Litter" }
  ],
  [
    "pet-yeti-boomer8-dog-bowl",
    "YETI",
    "YETI Boomer 8 Dog Bowl",
    49.99,
    "Stainless steel dog bowl with a non-slip base, holds 8 cups.",
    { product_type: "Pet Supplies > Dogs > Bowls & Feeders", color: "Stainless" }
  ],
  [
    "pet-outwardhound-slow-feeder-bowl",
    "Outward Hound",
    "Outward Hound Fun Feeder Slow Feeder Dog Bowl",
    12.99,
    "Maze-pattern bowl that slows down fast eaters.",
    { product_type: "Pet Supplies > Dogs > Bowls & Feeders", color: "Blue" }
  ],
  [
    "pet-flexi-retractable-leash",
    "flexi",
    "Flexi New Classic Retractable Dog Leash 16 ft",
    19.99,
    "Tape leash with a one-hand brake for dogs up to 44 lbs.",
    { product_type: "Pet Supplies > Dogs > Leashes & Harnesses" }
  ],
  [
    "pet-ruffwear-front-range-harness",
    "Ruffwear",
    "Ruffwear Front Range Dog Harness",
    49.95,
    "Padded everyday harness with two leash attachment points.",
    { product_type: "Pet Supplies > Dogs > Leashes & Harnesses", color: "Red Sumac" }
  ],
  [
    "pet-petsafe-cozyup-ramp",
    "PetSafe",
    "PetSafe CozyUp Folding Pet Ramp",
    69.95,
    "Lightweight ramp that helps older dogs into cars and onto beds.",
    { product_type: "Pet Supplies > Dogs > Ramps & Steps" }
  ],
  [
    "pet-zukes-training-treats",
    "Zuke's",
    "Zuke's Mini Naturals Dog Training Treats",
    8.99,
    "Soft, small treats for rewarding good behavior.",
    { product_type: "Pet Supplies > Dogs > Treats" }
  ],
  [
    "pet-amazon-puppy-pads",
    "Amazon Basics",
    "Amazon Basics Dog and Puppy Pee Training Pads 100 Count",
    24.99,
    "Leak-proof five-layer pads with a quick-dry surface.",
    { product_type: "Pet Supplies > Dogs > Training Pads" }
  ]
])

// ---------------------------------------------------------------- Garden

const garden = under("Garden", [
  [
    "gd-bloem-terra-pot-12",
    "Bloem",
    "Bloem Terra Pot Round Planter 12 in.",
    12.99,
    "Lightweight resin flower pot that looks like terra cotta.",
    { product_type: "Garden > Planters & Pots", color: "Terra Cotta" }
  ],
  [
    "gd-mkono-ceramic-plant-pots-3",
    "Mkono",
    "Mkono Ceramic Plant Pot Set of 3 with Drainage",
    33.99,
    "Modern white pots for indoor plants, with bamboo saucers.",
    { product_type: "Garden > Planters & Pots", color: "White" }
  ],
  [
    "gd-miraclegro-potting-mix",
    "Miracle-Gro",
    "Miracle-Gro Indoor Potting Mix 6 qt",
    7.97,
    "Feeds indoor plants for up to 6 months.",
    { product_type: "Garden > Soil & Fertilizer > Potting Mix" }
  ],
  [
    "gd-flexzilla-garden-hose-50",
    "Flexzilla",
    "Flexzilla Garden Hose 5/8 in. x 50 ft.",
    59.99,
    "Lightweight, kink-free hybrid polymer hose that stays flexible in the cold.",
    { product_type: "Garden > Watering > Hoses", color: "Zilla Green" }
  ],
  [
    "gd-suncast-hose-reel-cart",
    "Suncast",
    "Suncast Hose Reel Cart 175 ft",
    69.99,
    "Hose reel cart with a crank handle and a storage tray.",
    { product_type: "Garden > Watering > Hose Reels" }
  ],
  [
    "gd-melnor-hose-nozzle",
    "Melnor",
    "Melnor Metal 7-Pattern Hose Nozzle",
    14.99,
    "Front-trigger nozzle with seven spray patterns.",
    { product_type: "Garden > Watering > Nozzles" }
  ],
  [
    "gd-knockout-double-red-rose",
    "Knock Out",
    "Knock Out Double Red Rose Bush 2 Gal.",
    34.98,
    "Disease-resistant shrub rose that blooms from spring to frost.",
    { product_type: "Garden > Plants > Shrubs", color: "Red" }
  ],
  [
    "gd-costa-snake-plant",
    "Costa Farms",
    "Costa Farms Live Snake Plant in 10 in. Pot",
    39.99,
    "Easy-care upright houseplant that tolerates low light.",
    { product_type: "Garden > Plants > Houseplants" }
  ],
  [
    "gd-costa-monstera",
    "Costa Farms",
    "Costa Farms Monstera Deliciosa Live Indoor Plant",
    44.99,
    "Split-leaf philodendron in a nursery pot.",
    { product_type: "Garden > Plants > Houseplants" }
  ],
  [
    "gd-fiskars-bypass-pruner",
    "Fiskars",
    "Fiskars Bypass Pruning Shears 5/8 in.",
    14.97,
    "Sharp steel blade for clean cuts on live stems.",
    { product_type: "Garden > Garden Tools > Pruners" }
  ],
  [
    "gd-bullytools-leaf-rake",
    "Bully Tools",
    "Bully Tools 10-Gauge Leaf Rake",
    36.99,
    "Steel tine leaf rake with a fiberglass handle.",
    { product_type: "Garden > Garden Tools > Rakes" }
  ],
  [
    "gd-ego-56v-mower-21",
    "EGO",
    "EGO Power+ 56V 21 in. Cordless Lawn Mower",
    549,
    "Self-propelled battery mower with LED headlights, battery and charger included.",
    { product_type: "Garden > Outdoor Power Equipment > Lawn Mowers" }
  ],
  [
    "gd-ryobi-18v-string-trimmer",
    "Ryobi",
    "Ryobi ONE+ 18V Cordless String Trimmer",
    99,
    "Lightweight trimmer for edging and trimming around the yard.",
    { product_type: "Garden > Outdoor Power Equipment > String Trimmers" }
  ],
  [
    "gd-pinetree-bamboo-gloves",
    "Pine Tree Tools",
    "Pine Tree Tools Bamboo Gardening Gloves",
    14.99,
    "Breathable touchscreen-friendly work gloves for weeding and planting.",
    { product_type: "Garden > Garden Tools > Gloves" }
  ]
])

// ---------------------------------------------------------------- Office

const office = under("Office", [
  [
    "of-hermanmiller-aeron",
    "Herman Miller",
    "Herman Miller Aeron Ergonomic Office Chair Size B",
    1395,
    "Breathable mesh office chair with PostureFit SL back support.",
    { product_type: "Office > Office Furniture > Office Chairs" }
  ],
  [
    "of-hbada-ergonomic-desk-chair",
    "Hbada",
    "Hbada Ergonomic Office Desk Chair",
    159.99,
    "Mesh task chair with a flip-up armrest and lumbar support.",
    { product_type: "Office > Office Furniture > Office Chairs" }
  ],
  [
    "of-pilot-g2-pens-12pk",
    "Pilot",
    "Pilot G2 Premium Gel Roller Pens Black 12 Pack",
    14.49,
    "Smooth-writing retractable gel pens with a comfortable grip.",
    { product_type: "Office > Writing > Pens" }
  ],
  [
    "of-bic-cristal-pens-10",
    "BIC",
    "BIC Cristal Xtra Smooth Ballpoint Pen 10 Count",
    3.99,
    "Medium point ballpoint pens in blue ink.",
    { product_type: "Office > Writing > Pens" }
  ],
  [
    "of-sharpie-fine-24",
    "Sharpie",
    "Sharpie Permanent Markers Fine Point 24 Count",
    19.99,
    "Quick-drying markers that write on paper, plastic and metal.",
    { product_type: "Office > Writing > Markers" }
  ],
  [
    "of-moleskine-classic-large",
    "Moleskine",
    "Moleskine Classic Hard Cover Notebook Large Ruled",
    24.95,
    "240 pages of acid-free paper, an elastic closure and a ribbon bookmark.",
    { product_type: "Office > Paper > Notebooks" }
  ],
  [
    "of-hp-printer-paper-500",
    "HP",
    "HP Printer Paper 8.5 x 11 Copy Paper 500 Sheets",
    10.99,
    "Bright white 20 lb paper for everyday printing.",
    { product_type: "Office > Paper > Printer Paper" }
  ],
  [
    "of-brother-hl-l2350dw",
    "Brother",
    "Brother HL-L2350DW Wireless Monochrome Laser Printer",
    139.99,
    "Compact laser printer with automatic duplex and Wi-Fi.",
    { product_type: "Office > Printers > Laser Printers" }
  ],
  [
    "of-ysagi-leather-desk-pad",
    "YSAGi",
    "YSAGi Leather Desk Pad Mat 31.5 x 15.7 in.",
    14.99,
    "Waterproof desk mat that protects a desk and glides a mouse.",
    { product_type: "Office > Desk Accessories > Desk Pads" }
  ],
  [
    "of-simplehouseware-desk-organizer",
    "SimpleHouseware",
    "SimpleHouseware Mesh Desk Organizer with Sliding Drawer",
    19.99,
    "Five compartments and a drawer for pens and supplies.",
    { product_type: "Office > Desk Accessories > Organizers" }
  ],
  [
    "of-swingline-stapler",
    "Swingline",
    "Swingline Commercial Desk Stapler",
    15.99,
    "Full strip stapler that staples up to 20 sheets.",
    { product_type: "Office > Desk Accessories > Staplers" }
  ]
])

// ---------------------------------------------------------------- Baby

const baby = under("Baby", [
  [
    "by-pampers-swaddlers-size1",
    "Pampers",
    "Pampers Swaddlers Diapers Size 1 (198 Count)",
    64.99,
    "Soft diapers with a wetness indicator and a contoured fit.",
    { product_type: "Baby > Diapering > Diapers", age_group: "newborn" }
  ],
  [
    "by-huggies-pullups-training-pants",
    "Huggies",
    "Huggies Pull-Ups Boys' Potty Training Pants Size 3T-4T",
    25.99,
    "Easy-open sides and graphics that fade when wet, for potty training.",
    { product_type: "Baby > Diapering > Training Pants", age_group: "toddler" }
  ],
  [
    "by-summer-potty-training-seat",
    "Summer Infant",
    "Summer Infant My Size Potty Training Seat",
    24.99,
    "Realistic-looking toddler potty with a flushing sound.",
    { product_type: "Baby > Potty Training > Potties", age_group: "toddler" }
  ],
  [
    "by-uppababy-vista-v2",
    "UPPAbaby",
    "UPPAbaby Vista V2 Stroller",
    999.99,
    "Full-size convertible stroller with a bassinet that grows with the family.",
    { product_type: "Baby > Gear > Strollers", color: "Gregory Blue Melange" }
  ],
  [
    "by-graco-4ever-dlx",
    "Graco",
    "Graco 4Ever DLX 4-in-1 Car Seat",
    329.99,
    "Rear-facing, forward-facing, highback booster and backless booster in one seat.",
    { product_type: "Baby > Car Seats > Convertible Car Seats" }
  ],
  [
    "by-graco-turbobooster",
    "Graco",
    "Graco TurboBooster Highback Booster Car Seat",
    79.99,
    "Highback booster that converts to a backless booster seat.",
    { product_type: "Baby > Car Seats > Booster Seats", age_group: "kids" }
  ],
  [
    "by-avent-natural-bottle-4pk",
    "Philips Avent",
    "Philips Avent Natural Baby Bottle 9 oz 4 Pack",
    29.99,
    "Anti-colic baby bottles with a natural response nipple.",
    { product_type: "Baby > Feeding > Bottles", age_group: "infant" }
  ],
  [
    "by-munchkin-miracle-360-sippy",
    "Munchkin",
    "Munchkin Miracle 360 Sippy Cup 10 oz 2 Pack",
    11.99,
    "Spill-proof trainer cup that toddlers can drink from all around the rim.",
    { product_type: "Baby > Feeding > Sippy Cups", age_group: "toddler" }
  ],
  [
    "by-owlet-dream-sock",
    "Owlet",
    "Owlet Dream Sock Baby Monitor",
    299,
    "Smart sock that tracks a baby's heart rate and oxygen while they sleep.",
    { product_type: "Baby > Safety > Baby Monitors", age_group: "infant" }
  ],
  [
    "by-halo-sleepsack-swaddle",
    "Halo",
    "Halo SleepSack Swaddle Newborn",
    29.99,
    "Wearable blanket with adjustable wings for a snug swaddle.",
    { product_type: "Baby > Nursery > Swaddles", age_group: "newborn" }
  ],
  [
    "by-carters-baby-socks-6pk",
    "Carter's",
    "Carter's Baby 6-Pack Non-Slip Crew Socks",
    12,
    "Soft cotton-blend socks with grippers on the soles.",
    { product_type: "Baby > Clothing > Socks", age_group: "infant" }
  ],
  [
    "by-avent-soothie-pacifier",
    "Philips Avent",
    "Philips Avent Soothie Pacifier 0-3 Months 2 Pack",
    6.99,
    "One-piece hospital-grade silicone pacifiers.",
    { product_type: "Baby > Feeding > Pacifiers", age_group: "newborn" }
  ]
])

// ---------------------------------------------------------------- Bags & Luggage

const bags = under("Bags & Luggage", [
  [
    "bg-jansport-superbreak",
    "JanSport",
    "JanSport SuperBreak One Backpack",
    40,
    "Classic school backpack with a large main compartment and a front pocket.",
    { product_type: "Bags & Luggage > Backpacks", color: "Black" }
  ],
  [
    "bg-herschel-little-america-laptop",
    "Herschel",
    "Herschel Little America Laptop Backpack 15 in.",
    109.99,
    "Mountaineering-style backpack with a padded laptop sleeve.",
    { product_type: "Bags & Luggage > Backpacks > Laptop Backpacks", color: "Navy" }
  ],
  [
    "bg-coach-tabby-shoulder-bag-26",
    "Coach",
    "Coach Tabby Shoulder Bag 26",
    450,
    "Polished pebble leather bag with the Signature hardware and a detachable strap.",
    { product_type: "Bags & Luggage > Handbags > Shoulder Bags", color: "Black", gender: "female" }
  ],
  [
    "bg-longchamp-le-pliage-tote",
    "Longchamp",
    "Longchamp Le Pliage Original Large Tote Bag",
    165,
    "Foldable nylon tote with leather handles.",
    { product_type: "Bags & Luggage > Handbags > Totes", color: "Navy", gender: "female" }
  ],
  [
    "bg-patagonia-black-hole-duffel-55l",
    "Patagonia",
    "Patagonia Black Hole Duffel Bag 55L",
    159,
    "Weather-resistant duffel with backpack straps.",
    { product_type: "Bags & Luggage > Travel > Duffel Bags", color: "Black" }
  ],
  [
    "bg-samsonite-freeform-carry-on",
    "Samsonite",
    "Samsonite Freeform Hardside Carry-On Spinner Luggage 21 in.",
    189.99,
    "Lightweight expandable hardside luggage with spinner wheels.",
    { product_type: "Bags & Luggage > Travel > Carry-On Luggage", color: "Navy" }
  ],
  [
    "bg-amazon-laptop-bag-15-6",
    "Amazon Basics",
    "Amazon Basics 15.6 Inch Laptop Bag",
    22.99,
    "Shoulder bag with a padded laptop compartment and accessory pockets.",
    { product_type: "Bags & Luggage > Laptop Bags", color: "Black" }
  ],
  [
    "bg-baggu-standard-reusable",
    "BAGGU",
    "BAGGU Standard Reusable Shopping Bag",
    14,
    "Ripstop nylon bag that holds 50 lbs and folds into a pouch.",
    { product_type: "Bags & Luggage > Reusable Bags", color: "Sage" }
  ]
])

/** The whole catalog, in department order. */
export const catalog: ReadonlyArray<CatalogProduct> = [
  ...headphones,
  ...earbuds,
  ...speakers,
  ...soundbars,
  ...chargersAndCables,
  ...storageAndTablets,
  ...smartHome,
  ...sneakers,
  ...boots,
  ...sandalsAndSlippers,
  ...tees,
  ...shirts,
  ...skirtsAndShorts,
  ...jeansAndPants,
  ...socksAndVests,
  ...hats,
  ...outerwearAndMore,
  ...cookware,
  ...smallAppliances,
  ...drinkwareAndTableware,
  ...grocery,
  ...tools,
  ...grills,
  ...camping,
  ...waterSports,
  ...lighting,
  ...candles,
  ...rugsAndBedding,
  ...homeMisc,
  ...hardware,
  ...furniture,
  ...toys,
  ...beauty,
  ...sports,
  ...pet,
  ...garden,
  ...office,
  ...baby,
  ...bags
]

/** The products of an item group, by its id. */
export const groupMembers = (group: string): ReadonlyArray<CatalogProduct> =>
  catalog.filter((p) => p.item_group_id === group)
