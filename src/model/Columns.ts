/**
 * The filterable columns of a product, as the index payload holds them. Filters, facets and
 * the MCP column tools all read this one table.
 */
export type ColumnKind = "category" | "string" | "color" | "number" | "boolean"

export interface Column {
  readonly name: string
  readonly kind: ColumnKind
  readonly label: string
}

const columns: ReadonlyArray<Column> = [
  { name: "category", kind: "category", label: "Category" },
  { name: "shopping_product_category", kind: "category", label: "Shopping category" },
  { name: "product_type", kind: "category", label: "Product type" },
  { name: "brand", kind: "string", label: "Brand" },
  { name: "color", kind: "color", label: "Colour" },
  { name: "image_color", kind: "color", label: "Colour in photos" },
  { name: "image_object", kind: "string", label: "Object in photos" },
  { name: "price", kind: "number", label: "Price" },
  { name: "list_price", kind: "number", label: "List price" },
  { name: "sale_price", kind: "number", label: "Sale price" },
  { name: "availability", kind: "string", label: "Availability" },
  { name: "condition", kind: "string", label: "Condition" },
  { name: "gender", kind: "string", label: "Gender" },
  { name: "age_group", kind: "string", label: "Age group" },
  { name: "size", kind: "string", label: "Size" },
  { name: "size_type", kind: "string", label: "Size type" },
  { name: "size_system", kind: "string", label: "Size system" },
  { name: "material", kind: "string", label: "Material" },
  { name: "pattern", kind: "string", label: "Pattern" },
  { name: "energy_efficiency_class", kind: "string", label: "Energy efficiency class" },
  { name: "item_group_id", kind: "string", label: "Item group" },
  { name: "promotion_id", kind: "string", label: "Promotion" },
  { name: "mpn", kind: "string", label: "MPN" },
  { name: "gtin", kind: "string", label: "GTIN" },
  { name: "multipack", kind: "number", label: "Multipack" },
  { name: "adult", kind: "boolean", label: "Adult" },
  { name: "is_bundle", kind: "boolean", label: "Bundle" },
  { name: "custom_label_0", kind: "string", label: "Custom label 0" },
  { name: "custom_label_1", kind: "string", label: "Custom label 1" },
  { name: "custom_label_2", kind: "string", label: "Custom label 2" },
  { name: "custom_label_3", kind: "string", label: "Custom label 3" },
  { name: "custom_label_4", kind: "string", label: "Custom label 4" }
]

const byName = new Map(columns.map((c) => [c.name, c]))

export const allColumns = columns
export const findColumn = (name: string): Column | undefined => byName.get(name)
export const columnNames = columns.map((c) => c.name)
