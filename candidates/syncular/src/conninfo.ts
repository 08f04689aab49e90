/**
 * A libpq connection string (the harness's `dsn`, docs/driver-protocol.md "Values": Location)
 * as Bun.SQL options. Every parameter is honoured or refused: the race runner tells sessions
 * apart by `application_name`, so a parameter silently dropped would break what it watches.
 */

/** libpq's keyword/value form: `key=value` pairs, values optionally single-quoted with `\` escapes. */
export function parseConninfo(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  for (skipSpace(); i < text.length; skipSpace()) {
    const keyStart = i;
    while (i < text.length && text[i] !== '=' && !/\s/.test(text[i] as string)) i++;
    const key = text.slice(keyStart, i);
    skipSpace();
    if (text[i] !== '=') throw new Error(`conninfo: missing "=" after ${JSON.stringify(key)}`);
    i++;
    skipSpace();
    let value = '';
    if (text[i] === "'") {
      for (i++; ; i++) {
        if (i >= text.length) throw new Error('conninfo: unterminated quoted value');
        const c = text[i] as string;
        if (c === "'") break;
        if (c === '\\' && i + 1 < text.length) i++;
        value += text[i];
      }
      i++;
    } else {
      for (; i < text.length && !/\s/.test(text[i] as string); i++) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        value += text[i];
      }
    }
    out.set(key, value);
  }
  return out;
}

/**
 * libpq's `options` value (`-c name=value` switches, or `--name=value`) as run-time parameters
 * for the startup message, which is where libpq sends them too.
 */
function runtimeOptions(options: string): Record<string, string> {
  const out: Record<string, string> = {};
  const words = options.match(/(?:\\.|\S)+/g) ?? [];
  for (let k = 0; k < words.length; k++) {
    let word = (words[k] as string).replace(/\\(.)/g, '$1');
    if (word === '-c') word = (words[++k] ?? '').replace(/\\(.)/g, '$1');
    else if (word.startsWith('-c')) word = word.slice(2);
    else if (word.startsWith('--')) word = word.slice(2);
    else throw new Error(`conninfo options: unsupported switch ${JSON.stringify(word)}`);
    const eq = word.indexOf('=');
    if (eq <= 0) throw new Error(`conninfo options: expected name=value, got ${JSON.stringify(word)}`);
    out[word.slice(0, eq).replaceAll('-', '_')] = word.slice(eq + 1);
  }
  return out;
}

/** Bun.SQL's constructor options for `dsn`, plus run-time parameters the host adds. */
export function bunSqlOptions(dsn: string, parameters: Record<string, string>): Record<string, unknown> {
  const words = parseConninfo(dsn);
  const connection: Record<string, string> = {};
  const options: Record<string, unknown> = { adapter: 'postgres' };
  for (const [key, value] of words) {
    switch (key) {
      case 'host':
        // A directory is libpq's unix-socket form: Bun.SQL takes the socket file's path.
        if (value.startsWith('/')) options.path = `${value}/.s.PGSQL.${words.get('port') ?? '5432'}`;
        else options.hostname = value;
        break;
      case 'hostaddr':
        options.hostname = value;
        break;
      case 'port':
        options.port = Number(value);
        break;
      case 'user':
        options.username = value;
        break;
      case 'password':
        options.password = value;
        break;
      case 'dbname':
        options.database = value;
        break;
      case 'connect_timeout':
        options.connectionTimeout = Number(value);
        break;
      case 'sslmode':
        if (value === 'disable') options.tls = false;
        else if (value === 'require' || value === 'verify-ca' || value === 'verify-full') options.tls = true;
        else if (value !== 'prefer' && value !== 'allow') throw new Error(`conninfo: sslmode ${value}`);
        break;
      case 'application_name':
      case 'client_encoding':
        connection[key] = value;
        break;
      case 'options':
        Object.assign(connection, runtimeOptions(value));
        break;
      default:
        throw new Error(`conninfo: parameter ${JSON.stringify(key)} is not supported by the driver`);
    }
  }
  Object.assign(connection, parameters);
  options.connection = connection;
  return options;
}
