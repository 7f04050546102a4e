import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsObject, ValidateBy, ValidateNested } from 'class-validator';
import { FILTER_LIMITS, SAVED_FILTER_TEXTS, SAVED_FILTER_TITLE_MAX, SAVED_FILTER_TYPES, type SavedFilterBody, type SavedFilterType } from '@stat/schemas';
import { TOO_LONG } from '../projects/project.dto.js';
import { DimensionFilterRuleDto, MetricFilterRuleDto } from '../reports/filter.dto.js';
import { Given, HasNoProblem, Trimmed } from '../http/dto-helpers.js';

/** The template form's texts (specification 001, §5 and §8). */
const TITLE_REQUIRED = SAVED_FILTER_TEXTS.titleRequired;
export const TITLE_TAKEN = SAVED_FILTER_TEXTS.titleTaken;
const TITLE_TOO_LONG = TOO_LONG;
const BODY_EMPTY = 'body must hold at least one rule in dimension_filters or metric_filters';

/**
 * What is wrong with a title (already trimmed), or null. The length is counted in code points,
 * as Postgres's char_length counts it (class-validator's MaxLength skips variation selectors,
 * so a title it takes could break the table's CHECK).
 */
function titleProblem(title: unknown): string | null {
  if (typeof title !== 'string' || title === '') return TITLE_REQUIRED;
  if ([...title].length > SAVED_FILTER_TITLE_MAX) return TITLE_TOO_LONG;
  return null;
}


/** One message per title: «Поле не заполнено» or «Превышен лимит символов». */
const IsTitle = (): PropertyDecorator => HasNoProblem('isSavedFilterTitle', titleProblem);

/**
 * At least one rule: the save button is disabled while no filter is set (§4). A body that is
 * no object, or a list that is no list, is for the other checks to name.
 */
const HasRules = () =>
  ValidateBy({
    name: 'hasRules',
    validator: {
      validate: (body) => {
        if (typeof body !== 'object' || body === null) return true;
        const lists = [(body as SavedFilterBody).dimension_filters, (body as SavedFilterBody).metric_filters];
        return lists.some((list) => (Array.isArray(list) ? list.length > 0 : list !== undefined));
      },
      defaultMessage: () => BODY_EMPTY,
    },
  });

/**
 * Each rule's `extra`, when given, is an object. (DimensionFilterRuleDto validates it as
 * nested, which takes a list of objects as well; a saved rule must keep the contract's shape.)
 */
const ExtrasAreObjects = () =>
  ValidateBy({
    name: 'extrasAreObjects',
    validator: {
      validate: (rules) =>
        !Array.isArray(rules) ||
        rules.every((rule: unknown) => {
          const extra = typeof rule === 'object' && rule !== null ? (rule as { extra?: unknown }).extra : undefined;
          return extra === undefined || (typeof extra === 'object' && extra !== null && !Array.isArray(extra));
        }),
      defaultMessage: () => 'extra of a rule must be an object',
    },
  });


// The pipe stops at a field's first failing check (stopAtFirstError), and class-validator runs a
// field's checks from the decorator nearest to it upwards: so the most basic check (is it an
// array, an object) is written last, and only a value of the right kind is looked into.

/** The filters a template keeps (§3 "Saved filter"): the rules of the report calls, with their limits. */
export class SavedFilterBodyDto implements SavedFilterBody {
  @ValidateNested({ each: true })
  @Type(() => DimensionFilterRuleDto)
  @ExtrasAreObjects()
  @IsObject({ each: true, message: 'each rule must be an object' })
  @ArrayMaxSize(FILTER_LIMITS.rules)
  @IsArray()
  @Given()
  dimension_filters?: DimensionFilterRuleDto[];

  @ValidateNested({ each: true })
  @Type(() => MetricFilterRuleDto)
  @IsObject({ each: true, message: 'each rule must be an object' })
  @ArrayMaxSize(FILTER_LIMITS.rules)
  @IsArray()
  @Given()
  metric_filters?: MetricFilterRuleDto[];
}

/** POST /project/{id}/saved_filters: `{title, type?, body}`; type private unless said. */
export class CreateSavedFilterDto {
  @IsTitle()
  @Trimmed()
  title!: string;

  @IsIn(SAVED_FILTER_TYPES)
  @Given()
  type?: SavedFilterType;

  @ValidateNested()
  @Type(() => SavedFilterBodyDto)
  @HasRules()
  @IsObject()
  body!: SavedFilterBodyDto;
}

/** PUT /project/{id}/saved_filters/{filterId}: any of title, type and body (at least one). */
export class UpdateSavedFilterDto {
  @IsTitle()
  @Trimmed()
  @Given()
  title?: string;

  @IsIn(SAVED_FILTER_TYPES)
  @Given()
  type?: SavedFilterType;

  @ValidateNested()
  @Type(() => SavedFilterBodyDto)
  @HasRules()
  @IsObject()
  @Given()
  body?: SavedFilterBodyDto;
}
