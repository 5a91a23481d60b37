import { MarketingArticle } from "#app/components/marketing-article.tsx";

export default function Page() {
  return <MarketingArticle page="product" shot="dashboard" />;
}
