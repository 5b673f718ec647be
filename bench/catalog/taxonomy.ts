import type { Random } from "./random.js"

/**
 * The synthetic shop's department tree (10 departments x 8 categories x 6 subcategories) and
 * the per-department vocabulary the generator draws from.
 */
export type SizeKind = "apparel" | "shoe" | "kids" | "bedding" | "volume" | "none"

export interface Department {
  readonly name: string
  /** Median list price (log-normal) and the spread of its log. */
  readonly priceMedian: number
  readonly priceSigma: number
  readonly adjectives: ReadonlyArray<string>
  readonly materials: ReadonlyArray<string>
  readonly sizeKind: SizeKind
  /** Share of products with a gender. */
  readonly gendered: number
  /** Products for children (age groups kids/toddler/infant) rather than adults. */
  readonly forKids: number
  readonly hasEnergyClass: boolean
  /** Model/spec suffixes for titles. */
  readonly specs: ReadonlyArray<string>
  /** Selling points (highlights and description sentences). */
  readonly features: ReadonlyArray<string>
  /** What the products are for ("for <use>"). */
  readonly uses: ReadonlyArray<string>
  /** Detail attributes: [section, attribute, values]. */
  readonly details: ReadonlyArray<readonly [string, string, ReadonlyArray<string>]>
  /** Weight range in kg. */
  readonly weightKg: readonly [number, number]
  readonly categories: Readonly<Record<string, ReadonlyArray<string>>>
}

export const departments: ReadonlyArray<Department> = [
  {
    name: "Tools",
    priceMedian: 45,
    priceSigma: 0.9,
    adjectives: [
      "Cordless",
      "Brushless",
      "Heavy-Duty",
      "Compact",
      "Professional",
      "Magnetic",
      "Ergonomic",
      "Variable-Speed",
      "Rechargeable",
      "Precision",
      "Adjustable",
      "Folding"
    ],
    materials: ["Steel", "Chrome Vanadium", "Aluminium", "Fibreglass", "Carbide", "Hardened Steel", "ABS Plastic"],
    sizeKind: "none",
    gendered: 0,
    forKids: 0,
    hasEnergyClass: false,
    specs: [
      "18V",
      "20V Max",
      "12V",
      "1/2 in",
      "3/8 in",
      "2.0Ah",
      "4.0Ah Kit",
      "650W",
      "1200W",
      "Pro",
      "XR",
      "150 mm",
      "25 ft",
      "10-Piece Set",
      "Twin Pack"
    ],
    features: [
      "LED work light",
      "two-speed gearbox",
      "soft-grip handle",
      "keyless chuck",
      "belt clip",
      "low vibration",
      "dust extraction port",
      "tool-free blade change",
      "rust-resistant finish",
      "carry case included",
      "overload protection",
      "quick-release mechanism"
    ],
    uses: ["DIY projects", "professional job sites", "home repairs", "woodworking", "metalwork", "renovation work"],
    details: [
      ["Power", "Voltage", ["12 V", "18 V", "20 V", "230 V"]],
      ["Power", "Battery Capacity", ["2.0 Ah", "4.0 Ah", "5.0 Ah"]],
      ["General", "Warranty", ["1 year", "2 years", "3 years", "5 years"]],
      ["Dimensions", "Cable Length", ["2 m", "3 m", "4 m"]]
    ],
    weightKg: [0.2, 6],
    categories: {
      "Power Tools": ["Drills", "Impact Drivers", "Circular Saws", "Jigsaws", "Sanders", "Angle Grinders"],
      "Hand Tools": ["Hammers", "Screwdrivers", "Wrenches", "Pliers", "Chisels", "Utility Knives"],
      "Measuring Tools": ["Tape Measures", "Spirit Levels", "Laser Levels", "Calipers", "Stud Finders", "Squares"],
      "Tool Storage": ["Tool Boxes", "Tool Bags", "Tool Chests", "Workbenches", "Organizers", "Wall Racks"],
      Accessories: ["Drill Bits", "Saw Blades", "Sanding Discs", "Batteries", "Chargers", "Router Bits"],
      "Safety Equipment": ["Safety Glasses", "Work Gloves", "Ear Defenders", "Dust Masks", "Hard Hats", "Knee Pads"],
      Fasteners: ["Screws", "Nails", "Bolts", "Wall Anchors", "Washers", "Rivets"],
      Ladders: [
        "Step Ladders",
        "Extension Ladders",
        "Step Stools",
        "Platform Ladders",
        "Telescopic Ladders",
        "Scaffold Towers"
      ]
    }
  },
  {
    name: "Clothing",
    priceMedian: 30,
    priceSigma: 0.6,
    adjectives: [
      "Slim Fit",
      "Relaxed Fit",
      "Classic",
      "Oversized",
      "Cropped",
      "Organic",
      "Lightweight",
      "Stretch",
      "Vintage",
      "Essential",
      "Striped",
      "Ribbed",
      "Quilted",
      "Waterproof"
    ],
    materials: [
      "Cotton",
      "Organic Cotton",
      "Linen",
      "Merino Wool",
      "Polyester",
      "Denim",
      "Cashmere",
      "Viscose",
      "Recycled Polyester",
      "Fleece"
    ],
    sizeKind: "apparel",
    gendered: 0.95,
    forKids: 0.15,
    hasEnergyClass: false,
    specs: [
      "",
      "",
      "",
      "Regular Fit",
      "Long Sleeve",
      "Short Sleeve",
      "High Rise",
      "Crew Neck",
      "V-Neck",
      "2-Pack",
      "3-Pack"
    ],
    features: [
      "breathable fabric",
      "machine washable",
      "soft brushed lining",
      "side pockets",
      "elasticated waist",
      "tagless label",
      "reinforced seams",
      "moisture-wicking finish",
      "wrinkle resistant",
      "adjustable hood"
    ],
    uses: ["everyday wear", "the office", "weekends", "travel", "layering in cooler months", "summer days"],
    details: [
      ["Fabric", "Composition", ["100% cotton", "95% cotton 5% elastane", "80% wool 20% nylon", "100% polyester"]],
      ["Care", "Washing", ["30 degrees", "40 degrees", "hand wash"]],
      ["Fit", "Length", ["regular", "long", "cropped"]]
    ],
    weightKg: [0.1, 1.5],
    categories: {
      Tops: ["T-Shirts", "Shirts", "Blouses", "Polo Shirts", "Tank Tops", "Sweatshirts"],
      Bottoms: ["Jeans", "Chinos", "Shorts", "Leggings", "Joggers", "Skirts"],
      Outerwear: ["Jackets", "Coats", "Parkas", "Gilets", "Raincoats", "Fleece Jackets"],
      Dresses: ["Maxi Dresses", "Midi Dresses", "Shirt Dresses", "Wrap Dresses", "Cocktail Dresses", "Sundresses"],
      Knitwear: ["Sweaters", "Cardigans", "Hoodies", "Turtlenecks", "Knitted Vests", "Ponchos"],
      Underwear: ["Boxers", "Briefs", "Bras", "Socks", "Undershirts", "Thermal Tops"],
      Sleepwear: ["Pajamas", "Nightgowns", "Robes", "Lounge Pants", "Sleep Shirts", "Onesies"],
      Suits: ["Suit Jackets", "Suit Trousers", "Blazers", "Waistcoats", "Tuxedos", "Ties"]
    }
  },
  {
    name: "Shoes",
    priceMedian: 60,
    priceSigma: 0.5,
    adjectives: [
      "Lightweight",
      "Cushioned",
      "Waterproof",
      "Leather",
      "Suede",
      "Breathable",
      "Non-Slip",
      "Platform",
      "Wide Fit",
      "Classic",
      "Retro",
      "Knit"
    ],
    materials: ["Leather", "Suede", "Canvas", "Mesh", "Rubber", "Synthetic", "Nubuck", "Recycled Knit"],
    sizeKind: "shoe",
    gendered: 0.9,
    forKids: 0.12,
    hasEnergyClass: false,
    specs: ["", "", "2.0", "Low", "Mid", "GTX", "Pro", "Evo", "Lace-Up", "Zip"],
    features: [
      "memory foam insole",
      "grippy rubber outsole",
      "padded collar",
      "removable footbed",
      "pull-on tab",
      "reflective details",
      "shock-absorbing midsole",
      "water-repellent upper"
    ],
    uses: ["running", "walking", "the office", "hiking trails", "everyday wear", "the gym"],
    details: [
      ["Construction", "Sole", ["rubber", "EVA", "TPU"]],
      ["Construction", "Heel Height", ["2 cm", "3 cm", "5 cm"]],
      ["Fit", "Width", ["standard", "wide"]]
    ],
    weightKg: [0.2, 1.6],
    categories: {
      Sneakers: [
        "Running Shoes",
        "Trail Shoes",
        "Court Sneakers",
        "Slip-On Sneakers",
        "High-Top Sneakers",
        "Walking Shoes"
      ],
      Boots: ["Ankle Boots", "Chelsea Boots", "Hiking Boots", "Work Boots", "Rain Boots", "Snow Boots"],
      Sandals: ["Flip Flops", "Slides", "Sport Sandals", "Wedge Sandals", "Gladiator Sandals", "Espadrilles"],
      "Formal Shoes": ["Oxfords", "Loafers", "Derby Shoes", "Brogues", "Pumps", "Monk Straps"],
      Slippers: ["Moccasins", "Mule Slippers", "Bootie Slippers", "Clog Slippers", "Scuffs", "House Shoes"],
      "Kids Shoes": ["Kids Sneakers", "Kids Boots", "Kids Sandals", "School Shoes", "Baby Shoes", "Light-Up Shoes"],
      "Sports Shoes": [
        "Football Boots",
        "Basketball Shoes",
        "Tennis Shoes",
        "Cycling Shoes",
        "Golf Shoes",
        "Climbing Shoes"
      ],
      "Shoe Care": ["Shoe Polish", "Insoles", "Shoe Trees", "Shoe Laces", "Shoe Brushes", "Waterproofing Sprays"]
    }
  },
  {
    name: "Kitchen",
    priceMedian: 28,
    priceSigma: 0.8,
    adjectives: [
      "Non-Stick",
      "Stainless Steel",
      "Cast Iron",
      "Dishwasher Safe",
      "Induction",
      "Ceramic",
      "Electric",
      "Compact",
      "Digital",
      "Glass",
      "Bamboo",
      "Insulated"
    ],
    materials: [
      "Stainless Steel",
      "Cast Iron",
      "Aluminium",
      "Ceramic",
      "Glass",
      "Bamboo",
      "Silicone",
      "Porcelain",
      "Copper",
      "BPA-Free Plastic"
    ],
    sizeKind: "none",
    gendered: 0,
    forKids: 0,
    hasEnergyClass: true,
    specs: [
      "24 cm",
      "28 cm",
      "20 cm",
      "1.7 L",
      "3 qt",
      "5 qt",
      "1500W",
      "800W",
      "Set of 4",
      "Set of 6",
      "12-Piece",
      "XL"
    ],
    features: [
      "PFOA-free coating",
      "oven safe to 220 C",
      "stay-cool handles",
      "suitable for all hobs",
      "even heat distribution",
      "auto shut-off",
      "easy-pour spout",
      "dishwasher-safe parts",
      "keep-warm function",
      "stackable design"
    ],
    uses: ["everyday cooking", "family meals", "baking", "meal prep", "entertaining guests", "small kitchens"],
    details: [
      ["General", "Capacity", ["1 L", "1.7 L", "3 L", "5 L"]],
      ["General", "Dishwasher Safe", ["yes", "no"]],
      ["Power", "Wattage", ["800 W", "1500 W", "2000 W"]]
    ],
    weightKg: [0.1, 7],
    categories: {
      Cookware: ["Frying Pans", "Saucepans", "Stock Pots", "Woks", "Dutch Ovens", "Griddle Pans"],
      Bakeware: ["Baking Sheets", "Cake Tins", "Muffin Trays", "Loaf Tins", "Pie Dishes", "Cooling Racks"],
      Cutlery: ["Chef Knives", "Paring Knives", "Bread Knives", "Knife Blocks", "Steak Knives", "Knife Sharpeners"],
      "Small Appliances": ["Blenders", "Toasters", "Kettles", "Coffee Makers", "Air Fryers", "Stand Mixers"],
      "Kitchen Utensils": ["Spatulas", "Whisks", "Ladles", "Tongs", "Peelers", "Graters"],
      "Food Storage": ["Storage Containers", "Lunch Boxes", "Food Jars", "Bread Bins", "Vacuum Sealers", "Spice Racks"],
      Tableware: ["Dinner Plates", "Bowls", "Mugs", "Wine Glasses", "Serving Platters", "Cutlery Sets"],
      "Kitchen Textiles": ["Tea Towels", "Aprons", "Oven Gloves", "Tablecloths", "Placemats", "Napkins"]
    }
  },
  {
    name: "Electronics",
    priceMedian: 90,
    priceSigma: 1.0,
    adjectives: [
      "Wireless",
      "Bluetooth",
      "Noise Cancelling",
      "Portable",
      "Smart",
      "4K",
      "Ultra HD",
      "Gaming",
      "Fast Charging",
      "Compact",
      "Rugged",
      "Wi-Fi"
    ],
    materials: ["Aluminium", "Plastic", "Silicone", "Tempered Glass", "Carbon Fibre"],
    sizeKind: "none",
    gendered: 0,
    forKids: 0,
    hasEnergyClass: true,
    specs: [
      "128GB",
      "256GB",
      "1TB",
      "55 in",
      "65 in",
      "27 in",
      "USB-C",
      "Gen 2",
      "Pro",
      "Max",
      "Mini",
      "2024 Edition",
      "WiFi 6",
      "65W"
    ],
    features: [
      "up to 30 hours battery life",
      "active noise cancellation",
      "voice assistant built in",
      "HDR support",
      "fast charging",
      "IP67 water resistance",
      "low-latency mode",
      "multipoint pairing",
      "app control",
      "over-the-air updates"
    ],
    uses: ["gaming", "home entertainment", "working from home", "travel", "content creation", "streaming"],
    details: [
      ["Connectivity", "Bluetooth", ["5.0", "5.2", "5.3"]],
      ["Power", "Battery Life", ["10 hours", "20 hours", "30 hours"]],
      ["Display", "Resolution", ["1920x1080", "2560x1440", "3840x2160"]],
      ["General", "Warranty", ["1 year", "2 years"]]
    ],
    weightKg: [0.03, 20],
    categories: {
      Audio: ["Headphones", "Earbuds", "Bluetooth Speakers", "Soundbars", "Turntables", "Microphones"],
      Computers: ["Laptops", "Desktop PCs", "Tablets", "Monitors", "Keyboards", "Mice"],
      "TV & Video": ["Televisions", "Projectors", "Streaming Devices", "TV Mounts", "Media Players", "Antennas"],
      Phones: ["Smartphones", "Phone Cases", "Screen Protectors", "Power Banks", "Phone Chargers", "Car Mounts"],
      Cameras: ["Mirrorless Cameras", "Action Cameras", "Camera Lenses", "Tripods", "Camera Bags", "Memory Cards"],
      Networking: ["Routers", "Mesh Wi-Fi Systems", "Network Switches", "Range Extenders", "Ethernet Cables", "Modems"],
      "Smart Home": [
        "Smart Plugs",
        "Smart Bulbs",
        "Security Cameras",
        "Video Doorbells",
        "Smart Thermostats",
        "Smart Displays"
      ],
      Wearables: ["Smartwatches", "Fitness Trackers", "Smart Rings", "Watch Bands", "VR Headsets", "Smart Glasses"]
    }
  },
  {
    name: "Home",
    priceMedian: 50,
    priceSigma: 1.0,
    adjectives: [
      "Modern",
      "Scandinavian",
      "Rustic",
      "Velvet",
      "Minimalist",
      "Handmade",
      "Boho",
      "Luxury",
      "Soft-Touch",
      "Mid-Century",
      "Industrial",
      "Washable"
    ],
    materials: [
      "Oak",
      "Pine",
      "Velvet",
      "Linen",
      "Cotton",
      "Rattan",
      "Jute",
      "Metal",
      "Marble",
      "Glass",
      "Wool",
      "Bamboo"
    ],
    sizeKind: "bedding",
    gendered: 0,
    forKids: 0.05,
    hasEnergyClass: true,
    specs: [
      "",
      "120 x 170 cm",
      "160 x 230 cm",
      "Set of 2",
      "Large",
      "Small",
      "2-Seater",
      "3-Seater",
      "40 x 40 cm",
      "60 cm"
    ],
    features: [
      "easy to assemble",
      "removable washable cover",
      "hypoallergenic filling",
      "scratch-resistant finish",
      "anti-slip backing",
      "energy-saving LED",
      "soft-close doors",
      "fade-resistant colours",
      "hand-woven",
      "FSC-certified wood"
    ],
    uses: ["the living room", "the bedroom", "small spaces", "guest rooms", "the hallway", "the bathroom"],
    details: [
      ["Dimensions", "Width", ["40 cm", "80 cm", "120 cm", "200 cm"]],
      ["Materials", "Finish", ["matt", "gloss", "natural"]],
      ["Care", "Cleaning", ["wipe clean", "machine washable", "dry clean only"]]
    ],
    weightKg: [0.2, 60],
    categories: {
      Furniture: ["Sofas", "Armchairs", "Coffee Tables", "Bookcases", "Dining Chairs", "TV Stands"],
      Bedding: ["Duvet Covers", "Pillows", "Fitted Sheets", "Duvets", "Mattress Toppers", "Throws"],
      Lighting: ["Table Lamps", "Floor Lamps", "Pendant Lights", "Ceiling Lights", "Wall Lights", "String Lights"],
      Decor: ["Wall Art", "Mirrors", "Vases", "Candles", "Picture Frames", "Wall Clocks"],
      Rugs: ["Area Rugs", "Runner Rugs", "Doormats", "Outdoor Rugs", "Bath Mats", "Kids Rugs"],
      Bath: ["Bath Towels", "Shower Curtains", "Towel Rails", "Soap Dispensers", "Bathroom Cabinets", "Shower Heads"],
      Storage: ["Storage Boxes", "Baskets", "Shoe Racks", "Coat Racks", "Wardrobes", "Shelving Units"],
      Cleaning: ["Vacuum Cleaners", "Mops", "Brooms", "Steam Cleaners", "Cleaning Cloths", "Laundry Baskets"]
    }
  },
  {
    name: "Garden",
    priceMedian: 40,
    priceSigma: 1.0,
    adjectives: [
      "Cordless",
      "Weatherproof",
      "Foldable",
      "Solar",
      "Heavy-Duty",
      "Telescopic",
      "Petrol",
      "Electric",
      "Galvanised",
      "Expandable",
      "UV-Resistant",
      "Self-Propelled"
    ],
    materials: [
      "Steel",
      "Aluminium",
      "Acacia Wood",
      "Teak",
      "Rattan",
      "Polypropylene",
      "Terracotta",
      "Cast Iron",
      "Resin"
    ],
    sizeKind: "none",
    gendered: 0,
    forKids: 0,
    hasEnergyClass: false,
    specs: ["36V", "18V", "40 cm", "32 cm", "30 m", "50 ft", "Set of 3", "4-Seater", "Large", "1600W", "Kit"],
    features: [
      "rust-proof coating",
      "rear roller for stripes",
      "ergonomic soft grip",
      "rain-resistant fabric",
      "anti-kink hose",
      "height adjustable",
      "easy-start motor",
      "frost-proof",
      "large grass box",
      "foldable for storage"
    ],
    uses: ["small gardens", "large lawns", "patios", "balconies", "allotments", "summer barbecues"],
    details: [
      ["Power", "Voltage", ["18 V", "36 V", "230 V"]],
      ["Dimensions", "Cutting Width", ["32 cm", "37 cm", "42 cm"]],
      ["General", "Warranty", ["2 years", "3 years"]]
    ],
    weightKg: [0.2, 35],
    categories: {
      "Garden Tools": ["Spades", "Rakes", "Pruners", "Hoes", "Trowels", "Loppers"],
      "Lawn Care": ["Lawn Mowers", "Grass Trimmers", "Leaf Blowers", "Lawn Spreaders", "Scarifiers", "Lawn Edgers"],
      Watering: ["Garden Hoses", "Hose Reels", "Sprinklers", "Watering Cans", "Spray Guns", "Drip Irrigation Kits"],
      "Plants & Pots": ["Planters", "Plant Pots", "Raised Beds", "Hanging Baskets", "Seed Trays", "Plant Stands"],
      "Outdoor Furniture": ["Garden Chairs", "Garden Tables", "Sun Loungers", "Parasols", "Hammocks", "Bistro Sets"],
      "Outdoor Cooking": ["Charcoal Grills", "Gas Grills", "Pizza Ovens", "Smokers", "Grill Tools", "Fire Pits"],
      "Garden Decor": ["Solar Lights", "Bird Feeders", "Wind Chimes", "Garden Statues", "Water Fountains", "Trellises"],
      "Pest Control": [
        "Insect Traps",
        "Slug Pellets",
        "Bird Netting",
        "Weed Killers",
        "Mouse Traps",
        "Repellent Sprays"
      ]
    }
  },
  {
    name: "Sports",
    priceMedian: 35,
    priceSigma: 1.0,
    adjectives: [
      "Lightweight",
      "Adjustable",
      "Waterproof",
      "Breathable",
      "Foldable",
      "Professional",
      "Non-Slip",
      "Insulated",
      "Reflective",
      "Compact",
      "Quick-Dry",
      "Ultralight"
    ],
    materials: ["Aluminium", "Carbon", "Neoprene", "Nylon", "Polyester", "Rubber", "Steel", "Graphite", "Foam"],
    sizeKind: "apparel",
    gendered: 0.4,
    forKids: 0.1,
    hasEnergyClass: false,
    specs: [
      "",
      "2 kg",
      "5 kg",
      "10 kg",
      "Size 5",
      "2-Person",
      "4-Person",
      "29 in",
      "Pro",
      "Junior",
      "Set of 2",
      "6 mm"
    ],
    features: [
      "quick-dry fabric",
      "anti-slip surface",
      "adjustable straps",
      "reflective trim",
      "carry bag included",
      "moisture-wicking",
      "impact-absorbing foam",
      "packs down small",
      "UV protection",
      "puncture resistant"
    ],
    uses: ["home workouts", "the gym", "camping trips", "competitive play", "beginners", "outdoor adventures"],
    details: [
      ["General", "Weight Capacity", ["100 kg", "120 kg", "150 kg"]],
      ["Materials", "Outer", ["nylon", "polyester", "neoprene"]],
      ["General", "Suitable For", ["beginners", "intermediate", "advanced"]]
    ],
    weightKg: [0.05, 40],
    categories: {
      Fitness: ["Dumbbells", "Kettlebells", "Yoga Mats", "Resistance Bands", "Exercise Bikes", "Treadmills"],
      Cycling: ["Road Bikes", "Mountain Bikes", "Bike Helmets", "Bike Lights", "Bike Locks", "Cycling Jerseys"],
      Camping: ["Tents", "Sleeping Bags", "Camping Stoves", "Camping Chairs", "Headlamps", "Cool Boxes"],
      "Team Sports": ["Footballs", "Basketballs", "Goal Nets", "Shin Guards", "Training Cones", "Volleyballs"],
      "Racket Sports": [
        "Tennis Rackets",
        "Badminton Rackets",
        "Padel Rackets",
        "Tennis Balls",
        "Shuttlecocks",
        "Racket Bags"
      ],
      "Water Sports": ["Swimsuits", "Swim Goggles", "Wetsuits", "Paddle Boards", "Life Jackets", "Snorkel Sets"],
      Running: [
        "Running Jackets",
        "Running Tights",
        "Running Belts",
        "Hydration Packs",
        "GPS Watches",
        "Compression Socks"
      ],
      "Winter Sports": ["Skis", "Snowboards", "Ski Goggles", "Ski Jackets", "Ski Gloves", "Snow Helmets"]
    }
  },
  {
    name: "Toys",
    priceMedian: 22,
    priceSigma: 0.8,
    adjectives: [
      "Wooden",
      "Educational",
      "Interactive",
      "Magnetic",
      "Remote Control",
      "Musical",
      "Soft",
      "Colourful",
      "Classic",
      "Giant",
      "Light-Up",
      "Eco-Friendly"
    ],
    materials: ["Wood", "Plastic", "Plush", "Cardboard", "Silicone", "Felt", "Recycled Plastic"],
    sizeKind: "kids",
    gendered: 0.2,
    forKids: 0.95,
    hasEnergyClass: false,
    specs: [
      "",
      "500 Pieces",
      "1000 Pieces",
      "100 Pieces",
      "Set",
      "Deluxe Edition",
      "Junior",
      "30 cm",
      "Starter Kit",
      "Ages 3+",
      "Ages 8+"
    ],
    features: [
      "non-toxic paints",
      "encourages creativity",
      "develops fine motor skills",
      "batteries included",
      "easy-grip pieces",
      "storage bag included",
      "sound and light effects",
      "machine washable",
      "award-winning design",
      "suitable from 3 years"
    ],
    uses: ["toddlers", "family game night", "rainy days", "birthday gifts", "outdoor play", "learning at home"],
    details: [
      ["Safety", "Minimum Age", ["0 months", "18 months", "3 years", "8 years"]],
      ["General", "Pieces", ["12", "100", "500", "1000"]],
      ["Power", "Batteries", ["2 x AA", "3 x AAA", "none"]]
    ],
    weightKg: [0.05, 25],
    categories: {
      "Building Toys": [
        "Building Blocks",
        "Construction Sets",
        "Magnetic Tiles",
        "Marble Runs",
        "Model Kits",
        "Wooden Blocks"
      ],
      Dolls: ["Fashion Dolls", "Baby Dolls", "Doll Houses", "Action Figures", "Puppets", "Doll Accessories"],
      Games: ["Board Games", "Card Games", "Jigsaw Puzzles", "Strategy Games", "Party Games", "Dice Games"],
      "Outdoor Toys": ["Trampolines", "Swings", "Slides", "Scooters", "Kites", "Water Guns"],
      "Educational Toys": ["STEM Kits", "Science Kits", "Coding Robots", "Globes", "Learning Tablets", "Microscopes"],
      "Plush Toys": [
        "Teddy Bears",
        "Plush Animals",
        "Cuddly Toys",
        "Plush Cushions",
        "Hand Puppets",
        "Comfort Blankets"
      ],
      Vehicles: ["Toy Cars", "Remote Control Cars", "Train Sets", "Race Tracks", "Toy Trucks", "Drones"],
      "Baby Toys": ["Rattles", "Activity Gyms", "Stacking Toys", "Teethers", "Bath Toys", "Push Walkers"]
    }
  },
  {
    name: "Beauty",
    priceMedian: 18,
    priceSigma: 0.8,
    adjectives: [
      "Hydrating",
      "Vegan",
      "Fragrance-Free",
      "Organic",
      "Long-Lasting",
      "Matte",
      "Nourishing",
      "Sensitive",
      "Volumising",
      "Brightening",
      "Ionic",
      "Professional"
    ],
    materials: [
      "Shea Butter",
      "Argan Oil",
      "Hyaluronic Acid",
      "Vitamin C",
      "Aloe Vera",
      "Retinol",
      "Coconut Oil",
      "Charcoal"
    ],
    sizeKind: "volume",
    gendered: 0.5,
    forKids: 0.02,
    hasEnergyClass: false,
    specs: [
      "50 ml",
      "100 ml",
      "200 ml",
      "250 ml",
      "30 ml",
      "SPF 30",
      "SPF 50",
      "2200W",
      "Travel Size",
      "Duo",
      "Refill"
    ],
    features: [
      "dermatologically tested",
      "cruelty-free",
      "paraben-free formula",
      "suitable for sensitive skin",
      "non-greasy finish",
      "long-lasting hold",
      "ceramic coated plates",
      "recyclable packaging",
      "24-hour moisture",
      "salon results at home"
    ],
    uses: ["dry skin", "oily skin", "daily use", "curly hair", "sensitive skin", "evening routines"],
    details: [
      ["Ingredients", "Key Ingredient", ["niacinamide", "hyaluronic acid", "vitamin E", "shea butter"]],
      ["General", "Skin Type", ["all", "dry", "oily", "combination"]],
      ["General", "Volume", ["30 ml", "50 ml", "100 ml", "250 ml"]]
    ],
    weightKg: [0.03, 1.2],
    categories: {
      Skincare: ["Moisturisers", "Cleansers", "Serums", "Face Masks", "Eye Creams", "Sunscreens"],
      Haircare: ["Shampoos", "Conditioners", "Hair Oils", "Hair Masks", "Styling Gels", "Dry Shampoos"],
      Makeup: ["Foundations", "Lipsticks", "Mascaras", "Eyeshadow Palettes", "Concealers", "Blushes"],
      Fragrance: ["Eau de Parfum", "Eau de Toilette", "Body Mists", "Colognes", "Perfume Oils", "Fragrance Gift Sets"],
      "Hair Tools": [
        "Hair Dryers",
        "Hair Straighteners",
        "Curling Irons",
        "Hair Brushes",
        "Hair Clippers",
        "Hot Brushes"
      ],
      "Bath & Body": ["Shower Gels", "Body Lotions", "Body Scrubs", "Bath Bombs", "Hand Creams", "Deodorants"],
      Shaving: ["Razors", "Shaving Creams", "Electric Shavers", "Beard Trimmers", "Aftershaves", "Razor Blades"],
      "Nail Care": ["Nail Polishes", "Nail Files", "Cuticle Oils", "Manicure Kits", "Gel Lamps", "Nail Clippers"]
    }
  }
]

/** Labels that stay plural in a product title ("Running Shoes", "Jeans"). */
const pluralNouns = new Set([
  "Shoes",
  "Boots",
  "Sandals",
  "Sneakers",
  "Slippers",
  "Jeans",
  "Shorts",
  "Leggings",
  "Joggers",
  "Chinos",
  "Tights",
  "Pajamas",
  "Boxers",
  "Briefs",
  "Trousers",
  "Pants",
  "Flops",
  "Slides",
  "Espadrilles",
  "Oxfords",
  "Loafers",
  "Pumps",
  "Brogues",
  "Moccasins",
  "Scuffs",
  "Straps",
  "Goggles",
  "Pliers",
  "Pads",
  "Defenders",
  "Gloves",
  "Socks",
  "Insoles",
  "Laces",
  "Tongs",
  "Pellets",
  "Cones",
  "Guards",
  "Sprays",
  "Blocks",
  "Tiles",
  "Bands",
  "Polish"
])
const irregular: Record<string, string> = {
  Knives: "Knife",
  Onesies: "Onesie",
  "Safety Glasses": "Safety Glasses",
  "Smart Glasses": "Smart Glasses",
  Batteries: "Battery",
  Glasses: "Glass",
  Hoodies: "Hoodie",
  Ties: "Tie",
  Mice: "Mouse",
  Lenses: "Lens",
  Trellises: "Trellis",
  Headphones: "Headphones",
  Earbuds: "Earbuds",
  "Knife Blocks": "Knife Block",
  Dresses: "Dress",
  Sundresses: "Sundress",
  Mattress: "Mattress"
}

/** Title noun for a subcategory label: "Frying Pans" → "Frying Pan", "Running Shoes" stays. */
export const productNoun = (label: string): string => {
  if (irregular[label]) return irregular[label]
  const words = label.split(" ")
  const last = words[words.length - 1]
  let singular = last
  if (irregular[last]) singular = irregular[last]
  else if (pluralNouns.has(last) || !last.endsWith("s") || last.endsWith("ss")) singular = last
  else if (/(ch|sh|x|ss)es$/.test(last)) singular = last.slice(0, -2)
  else if (last.endsWith("ies")) singular = `${last.slice(0, -3)}y`
  else singular = last.slice(0, -1)
  return [...words.slice(0, -1), singular].join(" ")
}

export interface Leaf {
  readonly department: Department
  readonly path: readonly [string, string, string]
  readonly noun: string
}

export const leaves: ReadonlyArray<Leaf> = departments.flatMap((department) =>
  Object.entries(department.categories).flatMap(([category, subs]) =>
    subs.map((sub): Leaf => ({ department, path: [department.name, category, sub], noun: productNoun(sub) }))
  )
)

export const colours: ReadonlyArray<string> = [
  "Black",
  "White",
  "Grey",
  "Navy",
  "Blue",
  "Red",
  "Green",
  "Beige",
  "Brown",
  "Pink",
  "Yellow",
  "Orange",
  "Purple",
  "Silver",
  "Gold",
  "Charcoal",
  "Olive",
  "Burgundy",
  "Teal",
  "Cream",
  "Khaki",
  "Light Blue",
  "Dark Green",
  "Rose Gold"
]

export const patterns: ReadonlyArray<string> = [
  "Solid",
  "Striped",
  "Checked",
  "Floral",
  "Geometric",
  "Camouflage",
  "Polka Dot",
  "Herringbone"
]

const brandStarts = [
  "Nor",
  "Vel",
  "Ark",
  "Bright",
  "Stone",
  "Blue",
  "Peak",
  "Terra",
  "Nova",
  "Urban",
  "Silver",
  "Iron",
  "Wild",
  "Oak",
  "Sun",
  "Fox",
  "Pine",
  "True",
  "North",
  "Hex",
  "Kor",
  "Zen",
  "Max",
  "Luma",
  "Aero",
  "Cobalt",
  "Echo",
  "Flint",
  "Hali",
  "Vita"
]
const brandEnds = [
  "tek",
  "line",
  "craft",
  "wood",
  "forge",
  "wave",
  "works",
  "ix",
  "ora",
  "co",
  "ware",
  "lux",
  "field",
  "home",
  "pro"
]

/** ~300 brands, each selling in one to three departments; earlier brands are more popular. */
export const makeBrands = (random: Random, count = 300) => {
  const grid = random.shuffle(brandStarts.flatMap((start) => brandEnds.map((end) => start + end)))
  const all = grid.slice(0, count)
  const byDepartment = new Map<string, Array<string>>(departments.map((d) => [d.name, []]))
  for (const brand of all) {
    const homes = new Set([random.pick(departments).name])
    if (random.chance(0.35)) homes.add(random.pick(departments).name)
    if (random.chance(0.1)) homes.add(random.pick(departments).name)
    for (const home of homes) byDepartment.get(home)!.push(brand)
  }
  return { all, byDepartment }
}
