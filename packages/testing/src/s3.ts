import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The settings that point the service's MEDIA_STORE at this server. */
  env: Record<string, string>;
  /** Whether an object is stored under the service's media key (MEDIA_S3_PREFIX included). */
  has(key: string): Promise<boolean>;
  /** The object's bytes. */
  read(key: string): Promise<Buffer>;
  stop(): Promise<void>;
}

const ACCESS_KEY = "S3RVER"; // the only key s3rver accepts (it does not check signatures)

/**
 * An S3-protocol server of the test's own (s3rver, in this process) on a free loopback port,
 * with one bucket, so the media tests run against the S3 store exactly as against the folder.
 */
export async function startS3Server(prefix = "media/"): Promise<S3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "insp-s3-"));
  const bucket = "inspection-media";
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const read = async (key: string) => {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `${prefix}${key}` }));
    return Buffer.from(await out.Body!.transformToByteArray());
  };
  return {
    endpoint,
    bucket,
    env: {
      MEDIA_STORE: "s3",
      MEDIA_S3_ENDPOINT: endpoint,
      MEDIA_S3_BUCKET: bucket,
      MEDIA_S3_REGION: "us-east-1",
      MEDIA_S3_FORCE_PATH_STYLE: "true",
      MEDIA_S3_ACCESS_KEY_ID: ACCESS_KEY,
      MEDIA_S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      MEDIA_S3_PREFIX: prefix,
      MEDIA_SPOOL_DIR: path.join(directory, "spool"),
    },
    read,
    async has(key) {
      try {
        await read(key);
        return true;
      } catch (err) {
        if ((err as { name?: string }).name === "NoSuchKey") return false;
        throw err;
      }
    },
    async stop() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
