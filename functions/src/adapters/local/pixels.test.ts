import { describe, expect, it } from "vitest";
import { createSharedPixelPool, type RawPixels } from "./pixels";

const photo = (width: number, height: number, value: number): RawPixels => ({
  data: new Uint8Array(width * height * 3).fill(value),
  width,
  height,
});

describe("createSharedPixelPool", () => {
  it("copies a photo into shared memory and reuses that memory for the next photo once released", () => {
    const pool = createSharedPixelPool();
    const first = pool.lease(photo(4, 3, 7));
    expect(first.pixels.data.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...first.pixels.data]).toEqual(new Array(36).fill(7));
    expect(first.pixels).toMatchObject({ width: 4, height: 3 });

    const meanwhile = pool.lease(photo(4, 3, 8));
    expect(meanwhile.pixels.data.buffer).not.toBe(first.pixels.data.buffer);

    first.release();
    first.release();
    const smaller = pool.lease(photo(2, 2, 9));
    expect(smaller.pixels.data.buffer).toBe(first.pixels.data.buffer);
    expect(smaller.pixels.data.byteLength).toBe(12);
    expect([...smaller.pixels.data]).toEqual(new Array(12).fill(9));
    // Released twice, the buffer was still lent once: the next photo gets memory of its own.
    expect(pool.lease(photo(2, 2, 1)).pixels.data.buffer).not.toBe(first.pixels.data.buffer);
    expect([...meanwhile.pixels.data]).toEqual(new Array(36).fill(8));
  });

  it("lends a bigger photo new memory, the smallest free buffer that fits otherwise, and keeps the biggest", () => {
    const pool = createSharedPixelPool(2);
    const leases = [photo(1, 1, 0), photo(3, 3, 0), photo(2, 2, 0)].map((p) => pool.lease(p));
    const [tiny, big, middle] = leases.map((lease) => lease.pixels.data.buffer);
    for (const lease of leases) lease.release();
    // By identity: empty buffers of one size are equal as values.
    const isNew = (buffer: ArrayBufferLike) => ![tiny, big, middle].includes(buffer);

    expect(isNew(pool.lease(photo(5, 5, 0)).pixels.data.buffer)).toBe(true);
    // Of three released with room for two, the smallest went.
    expect(pool.lease(photo(1, 1, 0)).pixels.data.buffer).toBe(middle);
    expect(pool.lease(photo(1, 1, 0)).pixels.data.buffer).toBe(big);
    expect(isNew(pool.lease(photo(1, 1, 0)).pixels.data.buffer)).toBe(true);
  });
});
