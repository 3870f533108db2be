import type { ScryptOptions } from "node:crypto";
import { Worker } from "node:worker_threads";
import { messages } from "@dorsal/shared";
import { unavailable } from "./errors";

export interface ScryptRequest {
  password: string;
  salt: Uint8Array;
  keyLength: number;
  options: ScryptOptions;
}

type ScryptReply = { key: Uint8Array } | { error: string };

/**
 * The worker's whole program, as plain JavaScript evaluated by `new Worker(…, { eval: true })`: it
 * needs no TypeScript loader under tsx or vitest, and no separate file that every Lambda bundle
 * hashing a password would have to carry. `scryptSync` blocks only this thread, never libuv's pool.
 */
const workerProgram = `
const { parentPort } = require("node:worker_threads");
const { scryptSync } = require("node:crypto");
parentPort.on("message", ({ password, salt, keyLength, options }) => {
  let reply;
  try {
    reply = { key: scryptSync(password, salt, keyLength, options) };
  } catch (error) {
    reply = { error: String(error && error.message ? error.message : error) };
  }
  parentPort.postMessage(reply);
});
`;

export interface ScryptPool {
  /** Rejects at once with a 503 AppError when `maxQueued` derivations already wait. */
  derive(request: ScryptRequest): Promise<Buffer>;
}

interface Job {
  request: ScryptRequest;
  resolve(key: Buffer): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job?: Job;
}

/**
 * scrypt on dedicated worker threads. Node's async `crypto.scrypt` runs on libuv's thread pool (4
 * threads), the one that also serves file reads and DNS lookups: a burst of sign-ins there queues
 * every table and storage read behind its hashes.
 *
 * Workers start one at a time, only when a derivation finds every existing one busy, so a process
 * that never hashes never starts one. A worker holds the process open only while it derives: an
 * idle one is unref'd, so Lambda and the local runtime's graceful shutdown exit as before.
 */
export function createScryptPool(limits: { workers: number; maxQueued: number }): ScryptPool {
  const slots: Slot[] = [];
  const queue: Job[] = [];

  function run(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.worker.postMessage(job.request);
  }

  function finish(slot: Slot): Job | undefined {
    const job = slot.job;
    slot.job = undefined;
    const next = queue.shift();
    if (next) run(slot, next);
    else slot.worker.unref();
    return job;
  }

  function spawn(): Slot {
    const worker = new Worker(workerProgram, { eval: true, name: "scrypt" });
    const slot: Slot = { worker };
    let crash: Error | undefined;
    worker.on("message", (reply: ScryptReply) => {
      const job = finish(slot);
      if ("key" in reply) job?.resolve(Buffer.from(reply.key.buffer, reply.key.byteOffset, reply.key.byteLength));
      else job?.reject(new Error(`scrypt failed: ${reply.error}`));
    });
    worker.on("error", (error) => {
      crash = error;
    });
    worker.on("exit", (code) => {
      slots.splice(slots.indexOf(slot), 1);
      slot.job?.reject(crash ?? new Error(`scrypt worker exited with code ${code}`));
      // With no worker left, whatever still waits would wait forever.
      const next = queue.shift();
      if (next) run(spawn(), next);
    });
    slots.push(slot);
    return slot;
  }

  return {
    derive(request) {
      return new Promise<Buffer>((resolve, reject) => {
        const job: Job = { request, resolve, reject };
        const idle = slots.find((slot) => !slot.job);
        if (idle) run(idle, job);
        else if (slots.length < limits.workers) run(spawn(), job);
        else if (queue.length < limits.maxQueued) queue.push(job);
        else reject(unavailable(messages.serverBusy));
      });
    },
  };
}
