/**
 * Whether a value in a secret's position is a stand-in rather than a secret: a variable
 * reference (`$DB_PASSWORD`, `${{ secrets.NPM_TOKEN }}`, `%(password)s`), a template slot
 * (`<your-token>`, `{{ token }}`, `your_api_key`), or a mask (`****`, `xxxx`, `...`, `[hidden]`).
 * These say where the secret lives, which is exactly what a memory about a setup should keep.
 */
export function isPlaceholder(value: string): boolean {
  return (
    /^(?:\$|%\(|%s$|\{\{|<|your[_-])/i.test(value) ||
    /^(?:\*+|x+|X+|\.+|•+|\[[A-Za-z _-]*\])$/.test(value)
  );
}
