export { ServerSetupError } from "./errors.ts";
export { provideServers, type EmbedMode, type ProvidedServers, type ServerRequest } from "./resolve.ts";
export { localDataFolders, resetLocalData } from "./reset.ts";
export { redisServerBinary } from "./redis.ts";
export { postgresBinaries, runAs as postgresRunAs, runnableBinaries, runnableFrom } from "./postgres.ts";
export { addressOf, showAddress, tcpProblem } from "./probe.ts";
