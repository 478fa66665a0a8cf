export default function BrandsPlaceholder() {
  return <h1 className="text-2xl font-semibold">Brands</h1>;
}
