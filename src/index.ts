/** The package entry: build the whole app in memory for your own tests, or start it on a port. */
export { createGateway, startServer, type Gateway, type GatewayOptions, type RunningServer } from './server.ts';
export { SETTING_NAMES, type GatewayEnv, type SettingName } from './kernel/setting-names.ts';
export { createManualClock, systemClock, type Clock, type ManualClock } from './kernel/clock.ts';
export { ConfigError, loadConfig, type Config } from './kernel/config.ts';
