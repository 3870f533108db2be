import { Box, HStack, Tag, Text, VisuallyHidden } from "@chakra-ui/react";
import type { DetectedBib } from "@dorsal/shared";
import { PencilIcon } from "../../../components/ui/icons";

const percent = new Intl.NumberFormat("es-CO", { maximumFractionDigits: 0, roundingMode: "floor" });

/** Rounded down, so a 99.6 reading never claims a certainty of 100%. */
export function formatConfidence(confidence: number): string {
  return `${percent.format(confidence)}%`;
}

interface BibChipsProps {
  bibs: DetectedBib[];
  /** The number being removed right now, shown faded until the server answers. */
  removing?: string | undefined;
  onRemove?: ((number: string) => void) | undefined;
}

/**
 * A photo's bibs. Machine reads are blue and show the engine's confidence; manual tags are
 * purple with a pencil. The difference is also spelled out for screen readers.
 */
export function BibChips({ bibs, removing, onRemove }: BibChipsProps) {
  if (bibs.length === 0) {
    return (
      <Text textStyle="sm" color="fg.muted" fontStyle="italic">
        Sin dorsal
      </Text>
    );
  }
  return (
    <HStack as="ul" aria-label="Dorsales" gap="1.5" wrap="wrap">
      {bibs.map((bib) => {
        const manual = bib.source === "manual";
        const busy = removing === bib.number;
        return (
          <Box as="li" key={bib.number} listStyleType="none">
            <Tag.Root
              size="lg"
              variant={manual ? "solid" : "subtle"}
              colorPalette={manual ? "purple" : "blue"}
              opacity={busy ? 0.5 : 1}
              title={
                manual ? "Agregado a mano" : `Detectado automáticamente · confianza ${formatConfidence(bib.confidence)}`
              }
            >
              {manual && (
                <Tag.StartElement>
                  <PencilIcon />
                </Tag.StartElement>
              )}
              <Tag.Label fontWeight="semibold" fontVariantNumeric="tabular-nums">
                {bib.number}
              </Tag.Label>
              {manual ? (
                <VisuallyHidden>(manual)</VisuallyHidden>
              ) : (
                <Text as="span" textStyle="xs" color="blue.700" ms="1">
                  <VisuallyHidden>confianza</VisuallyHidden>
                  {formatConfidence(bib.confidence)}
                </Text>
              )}
              {onRemove && (
                <Tag.EndElement>
                  <Tag.CloseTrigger
                    aria-label={`Quitar dorsal ${bib.number}`}
                    disabled={busy}
                    onClick={() => onRemove(bib.number)}
                    position="relative"
                    // A finger needs more than the icon's 16 px: the hit area grows, the chip does not.
                    _before={{ content: '""', position: "absolute", inset: "-2" }}
                  />
                </Tag.EndElement>
              )}
            </Tag.Root>
          </Box>
        );
      })}
    </HStack>
  );
}
