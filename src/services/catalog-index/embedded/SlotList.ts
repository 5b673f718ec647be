/**
 * The slots holding one payload value, unordered, 4 bytes each: a Set<number> costs several
 * times that per member, and the category, brand and availability values of a large site hold
 * many members between them. Adding is O(1); removing searches the list (a native scan), which
 * happens only when a product changes or goes. Callers never add a slot twice: a product's old
 * values are removed before its new ones are added, and a value repeated within one payload is
 * caught as the list's last member.
 */
export class SlotList {
  private slots = new Int32Array(4)
  private length = 0

  get size(): number {
    return this.length
  }

  add(slot: number): void {
    if (this.length > 0 && this.slots[this.length - 1] === slot) return
    if (this.length === this.slots.length) {
      const grown = new Int32Array(this.slots.length * 2)
      grown.set(this.slots)
      this.slots = grown
    }
    this.slots[this.length++] = slot
  }

  /** Removes `slot` if present (the last member takes its place). */
  delete(slot: number): void {
    const at = this.slots.subarray(0, this.length).indexOf(slot)
    if (at === -1) return
    this.slots[at] = this.slots[--this.length]
    // Give memory back once a list has shrunk to a quarter of its capacity.
    if (this.slots.length > 16 && this.length <= this.slots.length / 4)
      this.slots = this.slots.slice(0, this.slots.length / 2)
  }

  /** How many members `mask` holds (1 = in). */
  countIn(mask: Uint8Array): number {
    let count = 0
    for (let i = 0; i < this.length; i++) count += mask[this.slots[i]]
    return count
  }

  /** The members, as a view (valid until the list changes). */
  view(): Int32Array {
    return this.slots.subarray(0, this.length)
  }

  forEach(f: (slot: number) => void): void {
    for (let i = 0; i < this.length; i++) f(this.slots[i])
  }
}
