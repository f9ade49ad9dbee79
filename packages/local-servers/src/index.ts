export { ServerSetupError } from "./errors.ts";
export { provideServers, type EmbedMode, type ProvidedServers } from "./resolve.ts";
export { localDataFolders, resetLocalData } from "./reset.ts";
export { redisServerBinary } from "./redis.ts";
export { postgresBinaries, runAs as postgresRunAs, runnableFrom } from "./postgres.ts";
export { addressOf, showAddress, tcpProblem } from "./probe.ts";
