/** Reads the content schema itself, for error messages: a field's schema, a section's fields, an example. Build-time only. */
import { z } from "zod";

/** Unwrap optional/nullable/default/pipe wrappers to reach the schema that carries meta and shape. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (;;) {
    const def = (current as unknown as { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } }).def;
    if (def.innerType) current = def.innerType;
    else if (def.type === "pipe" && def.in) current = def.in;
    else return current;
  }
}

/** The schema of the field at `fieldPath`, if the path exists in the model. */
export function schemaAt(fieldPath: string[], root: z.ZodType): z.ZodType | undefined {
  let current: z.ZodType | undefined = root;
  for (const key of fieldPath) {
    if (!current) return undefined;
    const inner = unwrap(current);
    if (inner instanceof z.ZodObject) current = inner.shape[key] as z.ZodType | undefined;
    else if (inner instanceof z.ZodArray) current = inner.element as z.ZodType;
    else return undefined;
  }
  return current;
}

/** The fields of the section at `fieldPath` (its zod shape), if it is a section. */
export function shapeAt(fieldPath: string[], root: z.ZodType): Record<string, unknown> | undefined {
  const schema = schemaAt(fieldPath, root);
  const inner = schema && unwrap(schema);
  return inner instanceof z.ZodObject ? inner.shape : undefined;
}

/** The first example the schema gives for the field at `fieldPath`. */
export function exampleFor(fieldPath: string[], root: z.ZodType): unknown {
  let current = schemaAt(fieldPath, root);
  while (current) {
    const examples = current.meta()?.examples as unknown[] | undefined;
    if (examples?.length) return examples[0];
    const def = (current as unknown as { def: { innerType?: z.ZodType; in?: z.ZodType } }).def;
    current = def.innerType ?? def.in;
  }
  return undefined;
}
