// htmx's ws extension retries with full jitter up to a minute; at a table a dropped phone
// should be back within seconds, so cap the wait at 8 s (still jittered, so a restarted
// server is not hit by every browser at once).
htmx.config.wsReconnectDelay = function (retryCount) {
  var cap = Math.min(8000, 500 * Math.pow(2, retryCount));
  return Math.random() * cap;
};
