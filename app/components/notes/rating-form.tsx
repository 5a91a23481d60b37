import { useTranslation } from "react-i18next";
import { Form } from "react-router";

/** Rate the draft 1–5 with a comment (quality data for the practice's dashboard). */
export function RatingForm({ noteId, rating, comment }: { noteId: string; rating: number | null; comment: string | null }) {
  const { t } = useTranslation("notes");
  return (
    <Form method="post" className="note-rating no-print" data-testid="note-rating">
      <input type="hidden" name="note_id" value={noteId} />
      <fieldset>
        <legend>{t("rating.title")}</legend>
        <div className="note-stars">
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n}>
              <input
                type="radio"
                name="rating"
                value={n}
                defaultChecked={rating === n}
                required
                aria-label={t("rating.star", { count: n })}
              />
              {n}
            </label>
          ))}
        </div>
        <label>
          {t("rating.comment")}
          <input name="comment" maxLength={2000} defaultValue={comment ?? ""} />
        </label>
      </fieldset>
      {rating ? <small data-testid="note-rating-current">{t("rating.current", { count: rating })}</small> : null}
      <button type="submit" name="intent" value="rate" className="secondary">
        {t("rating.submit")}
      </button>
    </Form>
  );
}
