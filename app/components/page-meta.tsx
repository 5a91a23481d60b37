import { PRODUCT_NAME } from "#app/utils/constants.ts";

/** Title and description for a page; React hoists them into <head>. */
export function PageMeta({ title, description }: { title?: string; description?: string }) {
  return (
    <>
      <title>{title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME}</title>
      {description ? <meta name="description" content={description} /> : null}
    </>
  );
}
